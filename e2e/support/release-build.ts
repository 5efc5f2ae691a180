/**
 * @module
 * The release folder the partner quickstart runs (`pnpm release`, `scripts/release.mjs`), built in the background
 * from the start of the suite so that no worker stands still for it: the global setup starts the build (at a lower
 * CPU priority than the tests) into a folder outside the repository and names that folder in `E2E_RELEASE_BUILD`;
 * when the build ends it leaves `result.json` there (exit code, output). The quickstart waits for it and places its
 * own copy of the release, as an operator does. A run whose file filters leave the quickstart out starts no build,
 * and a quickstart run without one builds its own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { placeRelease, releaseOutsideTheRepo } from '@esim-embed/bff/testing';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The environment variable that names the folder of the build started by the global setup. */
const RELEASE_BUILD_ENV = 'E2E_RELEASE_BUILD';

/** The quickstart's file, as the runner's file filters would match it. */
const QUICKSTART_FILE = 'tests/partner-quickstart.spec.ts';

/** How the build ended, as `result.json` records it (its standard output ends with the release's path). */
interface BuildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Whether a run may hold the quickstart: one of its test folders has it, and the runner's command line
 * (`playwright test [files…] [options]`) has no file filter (an argument that names a path) or one that matches
 * it. A `--grep` that leaves it out still builds: the build only costs time beside the tests.
 */
export function quickstartMayRun(argv: string[], testDirs: string[]): boolean {
  if (!testDirs.some((testDir) => existsSync(join(testDir, basename(QUICKSTART_FILE))))) return false;
  const afterCommand = argv.slice(argv.indexOf('test') + 1);
  const filters = afterCommand.filter(
    (arg, index) =>
      !arg.startsWith('-') &&
      (arg.includes('/') || arg.endsWith('.ts')) &&
      !['-c', '--config'].includes(afterCommand[index - 1] ?? ''),
  );
  return filters.length === 0 || filters.some((filter) => new RegExp(filter).test(QUICKSTART_FILE));
}

/** Starts the release build in the background; `stop` ends it if it still runs and removes its folder. */
export function startReleaseBuild(): { stop(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'esim-e2e-release-'));
  process.env[RELEASE_BUILD_ENV] = dir;
  // `nice`: the tests beside it, whose waits are real, keep the cores they need (Linux and macOS have it).
  const child: ChildProcess = spawn(
    'nice',
    ['-n', '10', process.execPath, join(REPO, 'scripts/release.mjs'), '--out-dir', join(dir, 'built')],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout?.on('data', (chunk) => stdout.push(String(chunk)));
  child.stderr?.on('data', (chunk) => stderr.push(String(chunk)));
  const ended = new Promise<void>((resolve) => {
    child.once('close', (code) => {
      const result: BuildResult = { code, stdout: stdout.join(''), stderr: stderr.join('') };
      writeFileSync(join(dir, 'result.json'), JSON.stringify(result));
      resolve();
    });
  });
  return {
    async stop() {
      if (child.exitCode === null && child.pid !== undefined) {
        // The build's own children (bundler, npm pack) go with it: it leads a process group of its own.
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // It ended meanwhile.
        }
        await ended;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The release for the quickstart, placed in `dir/run/`: the background build's once it ended (waiting for it at
 * most `timeoutMs`), or one built now when the global setup started none.
 */
export async function quickstartRelease(dir: string, timeoutMs: number): Promise<string> {
  const build = process.env[RELEASE_BUILD_ENV];
  if (build === undefined) return releaseOutsideTheRepo(dir);
  const resultFile = join(build, 'result.json');
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(resultFile)) {
    if (Date.now() > deadline) throw new Error(`the release build did not end within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as BuildResult;
  if (result.code !== 0) throw new Error(`the release build failed (${result.code}):\n${result.stderr}`);
  return placeRelease(result.stdout.trim().split('\n').at(-1), dir);
}
