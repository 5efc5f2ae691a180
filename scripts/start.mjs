#!/usr/bin/env node
/**
 * @module
 * `pnpm start`: build the widget (and the demo), then run the sandbox (port 8788) and the BFF (port 8787)
 * with the demo at http://localhost:8787/ — one command, no configuration. Ctrl-C (or SIGTERM) stops
 * everything; if one of the two servers dies, the other is stopped too.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bffPort = process.env.PORT ?? '8787';
const sandboxPort = process.env.SANDBOX_PORT ?? '8788';
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;

/** How to run pnpm: the one that runs this script, or the pinned one through npx. */
function pnpmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) {
    return /\.(c|m)?js$/.test(execPath) ? [process.execPath, [execPath]] : [execPath, []];
  }
  return ['npx', ['-y', 'pnpm@12.21.0']];
}

function log(message) {
  console.log(`\x1b[36m[start]\x1b[0m ${message}`);
}

/** Run a package's build script if it has one; `required` builds stop the start when they fail. */
function build(folder, name, required) {
  const manifest = join(root, folder, 'package.json');
  if (!existsSync(manifest)) return;
  if (!JSON.parse(readFileSync(manifest, 'utf8')).scripts?.build) return;
  log(`building ${name} …`);
  const [command, prefix] = pnpmCommand();
  const result = spawnSync(command, [...prefix, '--filter', name, 'run', 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    if (required) {
      console.error(`[start] building ${name} failed; fix it and run again.`);
      process.exit(result.status ?? 1);
    }
    log(`building ${name} failed; continuing without it.`);
  }
}

function tsx(folder) {
  const bin = join(root, folder, 'node_modules', '.bin', 'tsx');
  if (!existsSync(bin)) {
    console.error(`[start] ${bin} is missing: run \`npx -y pnpm@12.21.0 install\` first.`);
    process.exit(1);
  }
  return bin;
}

async function waitForHttp(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url);
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return false;
}

// The widget is required, unless an earlier build of it is there to fall back on.
build('packages/widget', '@esim-embed/widget', !existsSync(join(root, 'packages/widget/dist/widget.js')));
// The demo's partner server loads the partner SDK by its package `exports`: its build.
build('packages/partner', '@esim-embed/partner', true);
build('demo', '@esim-embed/demo', false);
// The partner console's page (its API is on without it).
build('packages/console', '@esim-embed/console', false);

const children = new Set();
let stopping = false;

function run(name, command, args, options) {
  const child = spawn(command, args, { stdio: 'inherit', ...options });
  children.add(child);
  child.on('exit', (code, signal) => {
    children.delete(child);
    if (!stopping) {
      console.error(`[start] ${name} exited (${signal ?? code}); stopping everything.`);
      stop(code === 0 ? 1 : (code ?? 1));
    } else if (children.size === 0) {
      process.exit(process.exitCode ?? 0);
    }
  });
  return child;
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  if (children.size === 0) process.exit(code);
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(code);
  }, 5_000).unref();
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

log(`sandbox on ${sandboxUrl}`);
run('sandbox', tsx('packages/sandbox'), ['src/server.ts'], {
  cwd: join(root, 'packages/sandbox'),
  env: { SANDBOX_STEP_DELAY_MS: '1200', ...process.env, SANDBOX_PORT: sandboxPort },
});
if (!(await waitForHttp(`${sandboxUrl}/capabilities`, 30_000))) {
  console.error('[start] the sandbox did not answer within 30 s.');
  stop(1);
} else {
  run('BFF', tsx('packages/bff'), [join(root, 'scripts', 'dev-bff.ts')], {
    cwd: root,
    env: { ...process.env, PORT: bffPort, ESIM_BFF_SANDBOX_URL: sandboxUrl },
  });
  if (await waitForHttp(`http://127.0.0.1:${bffPort}/healthz`, 30_000)) {
    log(
      `ready: the demo is at http://localhost:${bffPort}/  (API docs: http://localhost:${bffPort}/docs; Ctrl-C stops)`,
    );
    // The demo's console users: published, like the sandbox's test keys (packages/bff/src/console/demo-console-users.ts).
    log(
      `the partner console is at http://localhost:${bffPort}/console/  — sign in as admin@demo.example, ` +
        'support@demo.example or viewer@demo.example, password demo-console-password',
    );
  }
}
