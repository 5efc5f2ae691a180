#!/usr/bin/env node
/**
 * @module
 * One version across the BFF, the widget and the partner SDK: a release names one version, and the SDK and widget
 * packed into it are the ones of that BFF. `releaseVersion()` returns it, or throws naming each package's version
 * when they differ. `node scripts/one-version.mjs --write` (run by `pnpm version-packages` after
 * `changeset version`, which bumps the widget and the SDK together as one fixed group) gives the private BFF,
 * which changesets does not version, the widget's version.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../', import.meta.url);
/** The packages that share the version, by their folder under `packages/`. */
export const VERSIONED_PACKAGES = ['bff', 'widget', 'partner'];

const manifestPath = (folder) => new URL(`packages/${folder}/package.json`, ROOT);
const manifestOf = (folder) => JSON.parse(readFileSync(manifestPath(folder), 'utf8'));

/** Each versioned package's name and version. */
export function packageVersions() {
  return VERSIONED_PACKAGES.map((folder) => {
    const { name, version } = manifestOf(folder);
    return { folder, name, version };
  });
}

/** The version the BFF, the widget and the SDK share; throws when they do not share one. */
export function releaseVersion() {
  const versions = packageVersions();
  const distinct = new Set(versions.map(({ version }) => version));
  if (distinct.size !== 1) {
    const named = versions.map(({ name, version }) => `${name} ${version}`).join(', ');
    throw new Error(
      `the BFF, the widget and the SDK must share one version, found ${named}: run node scripts/one-version.mjs --write after changeset version`,
    );
  }
  return versions[0].version;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--write')) {
    const { version } = manifestOf('widget');
    const bff = manifestOf('bff');
    if (bff.version !== version) {
      const text = readFileSync(manifestPath('bff'), 'utf8');
      writeFileSync(
        manifestPath('bff'),
        text.replace(`"version": "${bff.version}"`, `"version": "${version}"`),
      );
    }
  }
  try {
    console.log(releaseVersion());
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  }
}
