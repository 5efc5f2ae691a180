/**
 * One version across the BFF, the widget and the partner SDK: their package.json files state the same one, and
 * the next release keeps it so — changesets bumps the widget and the SDK together (one fixed group), and
 * `pnpm version-packages` then gives the private BFF, which changesets does not version, the same.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import getReleasePlanModule from '@changesets/get-release-plan';
import { describe, expect, it } from 'vitest';
import { packageVersions, releaseVersion } from './one-version.mjs';

const getReleasePlan = getReleasePlanModule.default ?? getReleasePlanModule;
const ROOT = new URL('../', import.meta.url);
const readJson = (path) => JSON.parse(readFileSync(new URL(path, ROOT), 'utf8'));

describe('one version for the BFF, the widget and the SDK', () => {
  it('is what their package.json files state', () => {
    const versions = packageVersions();
    expect(versions.map(({ name }) => name)).toEqual([
      '@esim-embed/bff',
      '@esim-embed/widget',
      '@esim-embed/partner',
    ]);
    expect(new Set(versions.map(({ version }) => version)).size).toBe(1);
    expect(releaseVersion()).toBe(readJson('packages/bff/package.json').version);
  });

  it('stays one at the next release: the widget and the SDK bump together, then the BFF follows', async () => {
    expect(readJson('.changeset/config.json').fixed).toContainEqual([
      '@esim-embed/widget',
      '@esim-embed/partner',
    ]);
    const plan = await getReleasePlan(fileURLToPath(ROOT));
    const next = (name) => plan.releases.find((release) => release.name === name)?.newVersion;
    expect(next('@esim-embed/partner')).toBe(next('@esim-embed/widget'));
    const script = readJson('package.json').scripts['version-packages'];
    expect(script).toMatch(/^changeset version && node scripts\/one-version\.mjs --write /);
  });
});
