/**
 * The release workflow publishes what the release folder carries, with provenance, only after the whole test
 * command passed on the tagged commit; and the test command tries the publish of both packages (`npm publish
 * --dry-run`, in `test:package`, after the packages are packed and checked).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PHASES } from './test-phases.mjs';

const ROOT = new URL('../', import.meta.url);
const workflow = readFileSync(new URL('.github/workflows/release.yml', ROOT), 'utf8');
const scripts = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')).scripts;

describe('.github/workflows/release.yml', () => {
  it('runs on a version tag, in a public repository, allowed to sign provenance', () => {
    expect(workflow).toMatch(/^on:\n {2}push:\n {4}tags: \["v\*"\]$/m);
    expect(workflow).toMatch(/^ {4}if: \$\{\{ !github\.event\.repository\.private \}\}$/m);
    expect(workflow).toMatch(/^ {6}id-token: write\b/m);
    expect(workflow).toContain('test "v$(node scripts/one-version.mjs)" = "$GITHUB_REF_NAME"');
  });

  it('tests, cuts the release, then publishes the tarballs the release lists with provenance, in that order', () => {
    const steps = [
      'pnpm@12.21.0 install --frozen-lockfile',
      'pnpm@12.21.0 test',
      'node scripts/release.mjs --out-dir release',
      "require('./packages.json').packages.map((p) => p.file)",
      'npm publish "./$file" --provenance --access public',
    ].map((step) => workflow.indexOf(step));
    expect(steps.every((index) => index > 0)).toBe(true);
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);
  });
});

describe('the test command', () => {
  it('packs, checks and dry-runs the publish of the SDK and the widget', () => {
    expect(PHASES.map((phase) => phase.command('/reports'))).toContain('pnpm test:package');
    expect(scripts['test:package']).toBe(
      'pnpm --filter @esim-embed/widget check:package && pnpm --filter @esim-embed/partner check:package && ' +
        'pnpm --filter @esim-embed/widget --filter @esim-embed/partner exec npm publish --dry-run --ignore-scripts',
    );
  });
});
