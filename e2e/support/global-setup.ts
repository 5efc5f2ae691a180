/**
 * @module
 * The suite's global setup: builds the widget, the demo and the framework examples when their `dist` is missing
 * or stale, starts the stack (sandboxes, BFFs, partner pages; see `stack.ts`) in a child process on free loopback
 * ports, builds the plain-HTML example for that stack's BFF, hands the URLs to the tests through `E2E_STACK`,
 * starts the partner quickstart's release build in the background (`release-build.ts`), and returns the teardown
 * that stops them.
 */
import { type ChildProcess, execFileSync, execSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { FullConfig } from '@playwright/test';
import { chromiumPath } from '../browser';
import { FRAMEWORK_EXAMPLES, HTML_EXAMPLE_WIDGET } from './examples';
import { quickstartMayRun, startReleaseBuild } from './release-build';
import { STACK_ENV, type StackUrls } from './stack-urls';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PNPM = 'npx -y pnpm@12.21.0';

/** The newest modification time of the files under `paths` (0 when none exists). */
function newestChange(paths: string[]): number {
  let newest = 0;
  for (const path of paths.map((relative) => `${REPO}${relative}`)) {
    if (!existsSync(path)) continue;
    const info = statSync(path);
    if (!info.isDirectory()) {
      newest = Math.max(newest, info.mtimeMs);
      continue;
    }
    for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/**
 * Builds a package when its output is missing or older than its sources, so that the suite never runs a
 * stale build (`E2E_REBUILD=1` rebuilds anyway).
 */
function ensureBuilt(output: string, sources: string[], filter: string): void {
  const built = existsSync(`${REPO}${output}`) ? statSync(`${REPO}${output}`).mtimeMs : 0;
  const stale = built === 0 || newestChange(sources) > built;
  if (!stale && process.env.E2E_REBUILD !== '1') return;
  console.log(
    `[e2e] ${output} is ${built === 0 ? 'missing' : 'older than its sources'}: building ${filter}…`,
  );
  execSync(`${PNPM} --filter ${filter} build`, { cwd: REPO, stdio: 'inherit' });
}

/** The command-line script of the Vite that the package at `folder` (from the repository's root) builds with. */
function viteCli(folder: string): string {
  const manifest = createRequire(`${REPO}${folder}/package.json`).resolve('vite/package.json');
  return join(
    dirname(manifest),
    (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { vite: string } }).bin.vite,
  );
}

/** Starts `stack.ts` and resolves with its URLs once it printed them. */
function startStack(): Promise<{ child: ChildProcess; urls: StackUrls }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./stack.ts', import.meta.url))],
    {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, NODE_ENV: 'test' },
    },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('[e2e] the stack did not start within 60 s')), 60_000);
    child.once('exit', (code) =>
      reject(new Error(`[e2e] the stack exited with code ${code} before it was ready`)),
    );
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (line.startsWith('E2E_STACK ')) {
        clearTimeout(timer);
        resolve({ child, urls: JSON.parse(line.slice('E2E_STACK '.length)) as StackUrls });
      } else if (process.env.E2E_VERBOSE === '1') {
        console.log(`[stack] ${line}`);
      }
    });
  });
}

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  chromiumPath(); // fail before building anything when there is no browser
  ensureBuilt(
    // Written by the script-tag build after its scripts: a build from before it existed is rebuilt.
    'packages/widget/dist/integrity.json',
    ['packages/widget/src', 'packages/shared/src'],
    '@esim-embed/widget',
  );
  ensureBuilt(
    'demo/dist/index.html',
    ['demo/src', 'demo/public', 'demo/spa', 'demo/index.html', 'packages/widget/dist/lib'],
    '@esim-embed/demo',
  );
  ensureBuilt(
    'packages/console/dist/index.html',
    ['packages/console/src', 'packages/console/index.html', 'packages/shared/src'],
    '@esim-embed/console',
  );
  // The apps of `examples/`, as a partner builds them against the package's npm build (`dist/lib`).
  for (const example of FRAMEWORK_EXAMPLES) {
    ensureBuilt(
      `examples/${example}/dist/index.html`,
      [`examples/${example}/src`, `examples/${example}/index.html`, 'packages/widget/dist/lib'],
      `@esim-embed/example-${example}`,
    );
  }
  // The quickstart's release builds beside the whole run (its test waits for it), not in a worker's time.
  const testDirs = config.projects.map((project) => project.testDir);
  const releaseBuild = quickstartMayRun(process.argv, testDirs) ? startReleaseBuild() : null;
  let stack: ChildProcess | undefined;
  const teardown = async () => {
    await releaseBuild?.stop();
    if (stack === undefined || stack.exitCode !== null) return;
    const exited = new Promise((resolve) => stack?.once('exit', resolve));
    stack.kill('SIGTERM');
    await exited;
  };
  // A setup that fails returns no teardown: what it started (the detached release build, the stack) stops here.
  try {
    const { child, urls } = await startStack();
    stack = child;
    process.env[STACK_ENV] = JSON.stringify(urls);
    // The plain page names its BFF in its script tag, so it is built for this stack's BFF (in about a second):
    // its own `vite build`, run by Node straight away rather than through the package manager.
    execFileSync(process.execPath, [viteCli('examples/html'), 'build'], {
      cwd: `${REPO}examples/html`,
      stdio: 'inherit',
      env: { ...process.env, VITE_ESIM_BFF: urls.bff, VITE_ESIM_WIDGET_ID: HTML_EXAMPLE_WIDGET },
    });
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
