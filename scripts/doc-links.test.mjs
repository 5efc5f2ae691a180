/**
 * The repo carries its own map: every relative link in its Markdown files and every file a comment names under
 * `docs/` points at something that exists inside the repo — nothing points outside a clone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file !== '' && existsSync(join(root, file)));

/** `[text](target)` links of a Markdown text, without code blocks. */
function links(markdown) {
  const prose = markdown.replace(/```[\s\S]*?```/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);
}

describe('the repo’s own map', () => {
  it('has relative Markdown links that stay inside the repo and resolve', () => {
    const broken = [];
    // The release README's template links the release folder's files: the release test resolves them there.
    const checked = (name) =>
      name.endsWith('.md') && !name.startsWith('bench/reports/') && !name.startsWith('scripts/release/');
    for (const file of tracked.filter(checked)) {
      for (const target of links(readFileSync(join(root, file), 'utf8'))) {
        if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
        const path = resolve(root, dirname(file), decodeURIComponent(target.split('#')[0]));
        const inside = !relative(root, path).startsWith('..');
        if (!inside || !existsSync(path)) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('has no source file that sends a reader to the project’s shared folder', () => {
    const outside = tracked
      .filter((name) => /\.(ts|tsx|mjs|md|json)$/.test(name) && !name.startsWith('bench/reports/'))
      .filter((name) => name !== 'scripts/doc-links.test.mjs')
      .filter((name) =>
        /\.\.\/shared\/|shared\/DESIGN\.md|shared\/contract\//.test(readFileSync(join(root, name), 'utf8')),
      );
    expect(outside).toEqual([]);
  });
});
