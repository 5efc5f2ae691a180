/**
 * The changesets set-up releases the widget alone: every pending changeset bumps only public packages (the
 * private ones are not versioned), the widget is published as public, and its CHANGELOG.md has the form
 * `changeset version` writes into (the package's title, then the versions, newest first).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import getReleasePlanModule from '@changesets/get-release-plan';
import { expect, it } from 'vitest';

const getReleasePlan = getReleasePlanModule.default ?? getReleasePlanModule;
const ROOT = new URL('../', import.meta.url);
const readJson = (path) => JSON.parse(readFileSync(new URL(path, ROOT), 'utf8'));
const config = readJson('.changeset/config.json');

it('versions and publishes only the public packages, the widget as public', async () => {
  expect(config.privatePackages).toEqual({ version: false, tag: false });
  expect(config.access).toBe('public');
  const plan = await getReleasePlan(fileURLToPath(ROOT));
  const released = plan.releases.filter((release) => release.type !== 'none');
  for (const release of released) {
    const manifest = readJson(`packages/${release.name.replace('@esim-embed/', '')}/package.json`);
    expect(manifest.private, `${release.name} is released, so it must be public`).not.toBe(true);
  }
  for (const changeset of plan.changesets) {
    expect(changeset.releases.length, changeset.id).toBeGreaterThan(0);
  }
});

it('keeps the widget’s changelog in the form changeset version prepends to', () => {
  const changelog = readFileSync(new URL('packages/widget/CHANGELOG.md', ROOT), 'utf8');
  const [title, ...rest] = changelog.split('\n');
  expect(title).toBe('# @esim-embed/widget');
  const headings = rest.filter((line) => line.startsWith('## '));
  expect(headings.length).toBeGreaterThan(0);
  for (const heading of headings) expect(heading).toMatch(/^## \d+\.\d+\.\d+(-[\w.]+)?$/);
  // Nothing between the title and the newest version: `changeset version` inserts right under the title.
  expect(rest.find((line) => line.trim() !== '')).toBe(headings[0]);
});
