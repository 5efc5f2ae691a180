#!/usr/bin/env node
/**
 * @module
 * Builds `@esim-embed/widget` when its npm build (`packages/widget/dist/lib`) is missing or older than the
 * widget's or the shared package's sources, so that the examples type-check and bundle against the package as
 * a partner installs it from npm (its `exports`, its declarations), never against its sources. The examples'
 * `dev`, `build` and `typecheck` scripts run it first; it does nothing when the build is current.
 */
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const BUILT = join(REPO, 'packages/widget/dist/lib/index.d.ts');
const SOURCES = ['packages/widget/src', 'packages/widget/package.json', 'packages/shared/src'];

/** The newest modification time of the files under `path`. */
function newestChange(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const built = existsSync(BUILT) ? statSync(BUILT).mtimeMs : 0;
if (built === 0 || SOURCES.some((source) => newestChange(join(REPO, source)) > built)) {
  console.log(`[examples] the widget's npm build is ${built === 0 ? 'missing' : 'stale'}: building it…`);
  execSync('npx -y pnpm@12.21.0 --filter @esim-embed/widget build', { cwd: REPO, stdio: 'inherit' });
}
