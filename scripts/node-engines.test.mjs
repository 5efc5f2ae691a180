/**
 * The README's two commands work on the oldest Node.js the project states (`engines` of the root package):
 * no package in the lockfile asks for a newer one, so `pnpm install` prints no engine warning. A dependency that
 * does must be pinned to a version that still supports it, or replaced.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../', import.meta.url);
const rootPackage = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8'));
const lockfile = readFileSync(new URL('pnpm-lock.yaml', ROOT), 'utf8');

/** `[major, minor, patch]` of a version like `20.19`, `22.12.0`, `10.*` or `10.x`. */
function parts(version) {
  const [major = 0, minor = 0, patch = 0] = version
    .split('.')
    .map((part) => (part === '*' || part === 'x' ? 0 : Number(part)));
  if ([major, minor, patch].some(Number.isNaN)) throw new Error(`cannot read the version "${version}"`);
  return [major, minor, patch];
}

function compare(a, b) {
  for (let index = 0; index < 3; index += 1) if (a[index] !== b[index]) return a[index] - b[index];
  return 0;
}

/** Whether `wanted` satisfies one comparator (`>=10`, `<7`, `^20.19.0`, `8.*`). */
function meets(wanted, comparator, range) {
  const [, operator, version] = /^(>=|<=|>|<|\^)?(.+)$/.exec(comparator) ?? [];
  if (operator === '>=') return compare(wanted, parts(version)) >= 0;
  if (operator === '>') return compare(wanted, parts(version)) > 0;
  if (operator === '<=') return compare(wanted, parts(version)) <= 0;
  if (operator === '<') return compare(wanted, parts(version)) < 0;
  const bound = parts(version);
  const sameLine = wanted[0] === bound[0] && (bound[0] !== 0 || wanted[1] === bound[1]);
  if (operator === '^') return sameLine && compare(wanted, bound) >= 0;
  if (/^\d+(\.[*x])?$/.test(version)) return wanted[0] === bound[0];
  throw new Error(`cannot read the engines range "${range}"`);
}

/**
 * Whether `version` satisfies an `engines.node` range of the forms npm packages use: alternatives (`||`) of
 * comparators that must all hold (`>=6 <7`), each `>=`, `>`, `<=`, `<`, `^`, `x.*` or `x.x`.
 */
function satisfies(version, range) {
  const wanted = parts(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => meets(wanted, comparator, range)),
  );
}

describe('the Node.js the README names', () => {
  const oldest = rootPackage.engines.node.replace(/^>=\s*/, '');

  it('reads the ranges packages use', () => {
    expect(satisfies('20.19.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies('20.19.0', '>=22.12.0')).toBe(false);
    expect(satisfies('20.19.0', '6.* || 8.* || >= 10.*')).toBe(true);
    expect(satisfies('20.19.0', '^20.0.0 || ^22.0.0 || >=24.0.0')).toBe(true);
    expect(satisfies('20.19.0', '^20.20.0')).toBe(false);
    expect(satisfies('20.19.0', '>=6 <7 || >=8')).toBe(true);
    expect(satisfies('20.19.0', '>=14 <20')).toBe(false);
    expect(satisfies('20.19.0', '20.x || 22.x || 24.x')).toBe(true);
    expect(satisfies('20.19.0', '22.x || 24.x')).toBe(false);
  });

  it(`is enough for every package in the lockfile (Node.js ${oldest})`, () => {
    const refused = [];
    for (const [, name, range] of lockfile.matchAll(
      /^ {2}'?([^\s:']+)'?:\n(?: {4}.*\n)*? {4}engines: \{node: '?([^,}']+)'?[,}]/gm,
    )) {
      if (!satisfies(oldest, range)) refused.push(`${name} wants Node.js ${range}`);
    }
    expect(refused).toEqual([]);
  });
});
