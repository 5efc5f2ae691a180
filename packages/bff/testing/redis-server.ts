/**
 * @module
 * Test support: a real `redis-server` on a free loopback port, without persistence, stopped after use.
 * A missing binary is a loud failure, never a skipped test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';

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

/** Start `redis-server` (from `REDIS_SERVER_BIN` or the usual paths) and wait until it accepts connections. */
export async function startRedisServer(): Promise<RunningRedis> {
  const binary = CANDIDATES.find((path): path is string => path !== undefined && existsSync(path));
  if (binary === undefined) {
    throw new Error(
      'redis-server was not found (looked in REDIS_SERVER_BIN, /usr/bin, /usr/local/bin): install it with ' +
        '`apt-get install redis-server` — the Redis store tests need a real server.',
    );
  }
  const port = await freePort();
  let server = await spawnServer(binary, port);
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
      server = await spawnServer(binary, port);
    },
  };
}

async function spawnServer(
  binary: string,
  port: number,
): Promise<{ child: ChildProcess; exited: Promise<void> }> {
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
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
