/**
 * @module
 * The release folder as an operator places it: `pnpm release` (`scripts/release.mjs`) built into a folder of the
 * caller's, then copied on its own to another — with no `node_modules` of the repository in it or above it when
 * the caller's folder is outside the repository (`os.tmpdir()`).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** Builds the release under `dir` and returns the path of its copy in `dir/run/`. */
export function releaseOutsideTheRepo(dir: string): string {
  const built = execFileSync(
    process.execPath,
    [join(REPO, 'scripts/release.mjs'), '--out-dir', join(dir, 'built')],
    {
      cwd: REPO,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
    .trim()
    .split('\n')
    .at(-1);
  const release = placeRelease(built, dir);
  rmSync(join(dir, 'built'), { recursive: true, force: true });
  return release;
}

/**
 * Copies the release `scripts/release.mjs` built at `built` (the path it printed last) on its own to `dir/run/`,
 * as an operator places it, and returns the copy's path.
 */
export function placeRelease(built: string | undefined, dir: string): string {
  if (built === undefined || !existsSync(join(built, 'server.mjs')))
    throw new Error(`no release in ${built}`);
  const release = join(dir, 'run', basename(built));
  cpSync(built, release, { recursive: true });
  return release;
}
