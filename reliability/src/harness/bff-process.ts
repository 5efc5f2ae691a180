/**
 * @module
 * A BFF as its own Node process, started the way production starts it (`server.ts` with a config file in
 * `ESIM_BFF_CONFIG`, secrets in the environment, `ESIM_BFF_REDIS_URL` for the shared store, else the embedded
 * store in `ESIM_BFF_DATA_DIR`), with its stdout
 * captured line by line and a test-only memory probe over the IPC channel (nothing new is exposed over HTTP).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BffConfigInput } from '@esim-embed/bff';
import { BFF_BUNDLE, BFF_SERVER_ENTRY } from '@esim-embed/bff/testing';

const MEMORY_PROBE = fileURLToPath(new URL('./memory-probe.ts', import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The memory of a BFF process after a full garbage collection. */
export interface MemorySample {
  rss: number;
  heapUsed: number;
}

/** A running BFF process. */
export interface BffProcess {
  url: string;
  port: number;
  pid: number;
  /** Every line the process wrote to stdout and stderr. */
  logs: string[];
  /** Collect garbage in the process and read its memory (needs `memoryProbe`). */
  memory(): Promise<MemorySample>;
  /** Kill it with `signal` and wait until it is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface BffProcessOptions {
  config: BffConfigInput;
  /** Secrets and other variables (the config names the secrets' variables). */
  env: Record<string, string>;
  redisUrl?: string;
  /**
   * The embedded store's data directory when there is no `redisUrl` (default: a new one per process). Pass the
   * same one to start a process again on the state of one that was killed.
   */
  dataDir?: string;
  /** Run with `--expose-gc` and the IPC memory probe (for the soak). */
  memoryProbe?: boolean;
  /** Run the built bundle (`packages/bff/dist/server.js`, see {@link buildBffBundle}) instead of the sources. */
  built?: boolean;
  /** Run a release folder's `server.mjs` (see `pnpm release`), in that folder. */
  release?: string;
  /** The Node.js binary to run it on (default: this process's). */
  node?: string;
}

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** What the BFF's bundle is built from: its sources, its build script, and the shared package it bundles. */
const BUNDLE_SOURCES = ['packages/bff/src', 'packages/bff/package.json', 'packages/shared/src'];

/** The newest modification time of the files under the repository's `paths`. */
function newestChange(paths: string[]): number {
  let newest = 0;
  for (const path of paths.map((relative) => join(REPO_ROOT, relative))) {
    const info = statSync(path);
    if (!info.isDirectory()) newest = Math.max(newest, info.mtimeMs);
    else
      for (const entry of readdirSync(path, { recursive: true, withFileTypes: true }))
        if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Build the BFF's bundle as a release does (esbuild, a second or two), unless the bundle is newer than every
 * source it is built from (a suite before this one built it): the suites that run it build it once.
 */
export function buildBffBundle(): void {
  if (existsSync(BFF_BUNDLE) && statSync(BFF_BUNDLE).mtimeMs > newestChange(BUNDLE_SOURCES)) return;
  execFileSync('npx', ['-y', 'pnpm@12.21.0', '--filter', '@esim-embed/bff', 'run', 'build'], {
    cwd: REPO_ROOT,
    stdio: 'ignore',
  });
}

/** Start a BFF process on a free port and wait until it listens. */
export async function startBffProcess(options: BffProcessOptions): Promise<BffProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'esim-bff-'));
  const configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify(options.config));
  const args = options.release
    ? [join(options.release, 'server.mjs')]
    : options.built
      ? [BFF_BUNDLE]
      : [
          ...(options.memoryProbe
            ? ['--expose-gc', '--import', 'tsx', '--import', MEMORY_PROBE]
            : ['--import', 'tsx']),
          BFF_SERVER_ENTRY,
        ];
  const child: ChildProcess = spawn(options.node ?? process.execPath, args, {
    cwd: options.release ?? PACKAGE_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'debug',
      // No HOST: the BFF listens on loopback by default, as an operator starts it behind a proxy.
      PORT: '0',
      ESIM_BFF_CONFIG: configPath,
      ESIM_BFF_DATA_DIR: options.dataDir ?? join(dir, 'data'),
      ...(options.redisUrl === undefined ? {} : { ESIM_BFF_REDIS_URL: options.redisUrl }),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const logs: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the BFF did not listen within 20 s:\n${logs.join('\n')}`)),
      20_000,
    );
    const collect = (stream: NodeJS.ReadableStream | null) => {
      let buffered = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          logs.push(line);
          const listening = /"message":"BFF listening".*"url":"http:\/\/[^"]+:(\d+)"/.exec(line);
          if (listening !== null) {
            clearTimeout(timer);
            resolve(Number(listening[1]));
          }
        }
      });
    };
    collect(child.stdout);
    collect(child.stderr);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the BFF exited with ${code}:\n${logs.join('\n')}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? -1,
    logs,
    async memory() {
      return await new Promise<MemorySample>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the memory probe did not answer')), 10_000);
        child.once('message', (message) => {
          clearTimeout(timer);
          resolve(message as MemorySample);
        });
        child.send('memory');
      });
    },
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
