/**
 * @module
 * The suite's global setup: builds the widget and the demo when their `dist` is missing, starts the stack
 * (sandboxes, BFFs, partner pages; see `stack.ts`) in a child process on free loopback ports, hands its
 * URLs to the tests through `E2E_STACK`, and returns the teardown that stops it.
 */
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromiumPath } from '../browser';
import { STACK_ENV, type StackUrls } from './stack-urls';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PNPM = 'npx -y pnpm@12.21.0';

/** Builds a package when its output is missing (`E2E_REBUILD=1` rebuilds anyway). */
function ensureBuilt(output: string, filter: string): void {
  if (existsSync(`${REPO}${output}`) && process.env.E2E_REBUILD !== '1') return;
  console.log(`[e2e] ${output} is missing: building ${filter}…`);
  execSync(`${PNPM} --filter ${filter} build`, { cwd: REPO, stdio: 'inherit' });
}

/** Starts `stack.ts` and resolves with its URLs once it printed them. */
function startStack(): Promise<{ child: ChildProcess; urls: StackUrls }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./stack.ts', import.meta.url))],
    {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
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

export default async function globalSetup(): Promise<() => Promise<void>> {
  chromiumPath(); // fail before building anything when there is no browser
  ensureBuilt('packages/widget/dist/widget.js', '@esim-embed/widget');
  ensureBuilt('demo/dist/index.html', '@esim-embed/demo');
  const { child, urls } = await startStack();
  process.env[STACK_ENV] = JSON.stringify(urls);
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
}
