/**
 * @module
 * Test support: a real `redis-server` on a free loopback port, without persistence, stopped after use — a
 * primary, a replica of one, or a Sentinel watching one.
 * A missing binary is a loud failure, never a skipped test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). */
  resume(): void;
  /** Starts the server again on the same port after `stop()` (empty: there is no persistence). */
  restart(): Promise<void>;
}

const CANDIDATES = [process.env.REDIS_SERVER_BIN, '/usr/bin/redis-server', '/usr/local/bin/redis-server'];

/** A free TCP port on 127.0.0.1 (bound, read, released). */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('no port was assigned'));
      server.close(() => resolve(address.port));
    });
  });
}

/** The `redis-server` binary (from `REDIS_SERVER_BIN` or the usual paths); a missing one fails loudly. */
function redisServerBinary(): string {
  const binary = CANDIDATES.find((path): path is string => path !== undefined && existsSync(path));
  if (binary === undefined) {
    throw new Error(
      'redis-server was not found (looked in REDIS_SERVER_BIN, /usr/bin, /usr/local/bin): install it with ' +
        '`apt-get install redis-server` — the Redis store tests need a real server.',
    );
  }
  return binary;
}

/**
 * Start `redis-server` and wait until it accepts connections. `replicaOf`: the port of a primary on 127.0.0.1
 * this one replicates (a replica for a failover test); `settings`: more command-line settings
 * (`--maxmemory-policy`, `allkeys-lru`).
 */
export async function startRedisServer(
  options: { replicaOf?: number; settings?: string[] } = {},
): Promise<RunningRedis> {
  const binary = redisServerBinary();
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    ...(options.replicaOf === undefined ? [] : ['--replicaof', '127.0.0.1', String(options.replicaOf)]),
    ...(options.settings ?? []),
  ];
  let server = await spawnServer(binary, port, args);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (server.child.exitCode === null) server.child.kill('SIGTERM');
      await server.exited;
    },
    pause() {
      server.child.kill('SIGSTOP');
    },
    resume() {
      server.child.kill('SIGCONT');
    },
    async restart() {
      server = await spawnServer(binary, port, args);
    },
  };
}

/** A Sentinel on a free loopback port, watching the primary at 127.0.0.1:`primaryPort` as `masterName`. */
export async function startRedisSentinel(
  primaryPort: number,
  masterName: string,
): Promise<{ port: number; stop(): Promise<void> }> {
  const binary = redisServerBinary();
  const port = await freePort();
  // Sentinel rewrites its config file as it learns the replicas: a file of its own in a folder of its own.
  const dir = mkdtempSync(join(tmpdir(), 'esim-sentinel-'));
  const config = join(dir, 'sentinel.conf');
  writeFileSync(
    config,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${masterName} 127.0.0.1 ${primaryPort} 1`,
      `sentinel down-after-milliseconds ${masterName} 1000`,
      `sentinel failover-timeout ${masterName} 5000`,
      '',
    ].join('\n'),
  );
  const server = await spawnServer(binary, port, [config, '--sentinel']);
  return {
    port,
    async stop() {
      if (server.child.exitCode === null) server.child.kill('SIGTERM');
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function spawnServer(
  binary: string,
  port: number,
  args: string[],
): Promise<{ child: ChildProcess; exited: Promise<void> }> {
  const child: ChildProcess = spawn(binary, args, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not accept connections on port ${port} within 10 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, exited };
}

async function accepts(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
