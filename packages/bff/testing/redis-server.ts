/**
 * @module
 * Test support: a real `redis-server` on a free loopback port, without persistence, stopped after use — a
 * primary, a replica of one, a Sentinel watching one, or a Redis Cluster of three primaries with a replica each
 * (over TLS when asked, or announcing ports nobody listens on, as nodes behind NAT do).
 * A missing binary is a loud failure, never a skipped test.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

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
  // A folder of its own: a replica writes the primary's snapshot to disk (dump.rdb), never into the caller's folder.
  const dir = mkdtempSync(join(tmpdir(), 'esim-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
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

/** One node of a test cluster. */
export interface ClusterNode {
  port: number;
  /** Kills the node at once (SIGKILL): its connections drop, as in a crash. */
  kill(): Promise<void>;
}

export interface RunningRedisCluster {
  nodes: ClusterNode[];
  /** `127.0.0.1:port,…` of every node, as `ESIM_BFF_REDIS_CLUSTER_NODES` takes it. */
  seeds: string;
  /** The cluster as a store target. */
  target: { kind: 'cluster'; nodes: Array<{ host: string; port: number }>; tls: boolean };
  /** `redis-cli -p port args…`'s output (a command for one node). */
  cli(port: number, ...args: string[]): Promise<string>;
  /** The live primaries: node id and port, as the first live node sees them. */
  primaries(): Promise<Array<{ id: string; port: number }>>;
  /** The slot of `key`. */
  slotOf(key: string): Promise<number>;
  /** The port of the node serving `slot` as primary, as `port` sees the cluster. */
  primaryOf(slot: number, port?: number): Promise<number>;
  /** Waits until every live node reports `cluster_state:ok` and agrees on each slot's primary. */
  settled(waitMs?: number): Promise<void>;
  /**
   * Has every node announce a port nobody listens on (`cluster-announce-port`; the bus keeps its own), as nodes
   * behind NAT announce addresses a client cannot reach, and waits until every node tells the slots so. Answers
   * each announced `127.0.0.1:port` with the node's real port. `cli` still takes the real ports.
   */
  announceUnreachablePorts(): Promise<Map<string, number>>;
  stop(): Promise<void>;
}

/**
 * PEM files of a TLS cluster: every node serves `cert` (for 127.0.0.1, good as a client's too: the nodes show it to
 * each other on the bus) and trusts `ca`; clients need not show one.
 */
export interface ClusterTls {
  certFile: string;
  keyFile: string;
  caFile: string;
}

const execFileAsync = promisify(execFile);

/**
 * A Redis Cluster on six free loopback ports: three primaries holding the 16384 slots, a replica of each, a node
 * timeout of one second (a killed primary's replica takes over within a few). Its config files live in a
 * temporary folder, removed by `stop()`. With `tls`, every node listens for TLS only, its bus and replication
 * over TLS too (`tls-cluster`, `tls-replication`).
 */
export async function startRedisCluster(options: { tls?: ClusterTls } = {}): Promise<RunningRedisCluster> {
  const { tls } = options;
  const binary = redisServerBinary();
  const cliBinary = join(dirname(binary), 'redis-cli');
  const dir = mkdtempSync(join(tmpdir(), 'esim-cluster-'));
  /** Six free ports (a node also listens on its port + 10000, the cluster bus). */
  const freeNodePorts = async () => {
    const found: number[] = [];
    while (found.length < 6) {
      const port = await freePort();
      if (port < 55_000 && !found.includes(port)) found.push(port);
    }
    return found;
  };
  let ports: number[] = [];
  const listen = (port: number) =>
    tls === undefined
      ? ['--port', String(port)]
      : [
          '--port',
          '0',
          '--tls-port',
          String(port),
          '--tls-cert-file',
          tls.certFile,
          '--tls-key-file',
          tls.keyFile,
          '--tls-ca-cert-file',
          tls.caFile,
          '--tls-auth-clients',
          'no',
          '--tls-cluster',
          'yes',
          '--tls-replication',
          'yes',
        ];
  /** The six nodes started; one that cannot start stops the others too. */
  const spawnNodes = async () => {
    const started = await Promise.allSettled(
      ports.map((port) =>
        spawnServer(binary, port, [
          ...listen(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          dir,
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          '1000',
        ]),
      ),
    );
    const nodes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = started.find((result) => result.status === 'rejected');
    if (failed === undefined) return nodes;
    for (const node of nodes) node.child.kill('SIGKILL');
    await Promise.all(nodes.map((node) => node.exited));
    throw failed.reason;
  };
  let servers: Awaited<ReturnType<typeof spawnNodes>> = [];
  const tlsArgs = tls === undefined ? [] : ['--tls', '--cacert', tls.caFile];
  const cli = async (port: number, ...args: string[]) =>
    (await execFileAsync(cliBinary, [...tlsArgs, '-h', '127.0.0.1', '-p', String(port), ...args])).stdout;
  const killed = new Set<number>();
  const live = () => ports.filter((port) => !killed.has(port));

  async function primaryOf(slot: number, port = live()[0] as number): Promise<number> {
    const slots = JSON.parse(await cli(port, '--json', 'CLUSTER', 'SLOTS')) as Array<
      [number, number, [string, number, string]]
    >;
    const range = slots.find(([from, to]) => from <= slot && slot <= to);
    if (range === undefined) throw new Error(`no node serves slot ${slot}`);
    return range[2][1];
  }

  async function settled(waitMs = 20_000): Promise<void> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const views = await Promise.all(
        live().map(async (port) => {
          const info = await cli(port, 'CLUSTER', 'INFO').catch(() => '');
          const slots = await cli(port, '--json', 'CLUSTER', 'SLOTS').catch(() => '[]');
          return {
            ok: /cluster_state:ok/.test(info),
            slots: JSON.stringify(
              JSON.parse(slots)
                .map((r: unknown[]) => r.slice(0, 3))
                .sort(),
            ),
          };
        }),
      );
      if (views.every((view) => view.ok && view.slots === views[0]?.slots)) return;
      if (Date.now() > deadline) throw new Error(`the test cluster did not settle within ${waitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function primaries(): Promise<Array<{ id: string; port: number }>> {
    const lines = (await cli(live()[0] as number, 'CLUSTER', 'NODES')).trim().split('\n');
    return lines
      .map((line) => line.split(' '))
      .filter((fields) => fields[2]?.split(',').includes('master') && !fields[2].includes('fail'))
      .map((fields) => ({ id: fields[0] as string, port: Number(fields[1]?.split(':')[1]?.split('@')[0]) }));
  }

  // Free ports are free when asked, not when bound: on a busy machine another test may take one (or its bus port)
  // meanwhile, and the cluster cannot form. Then the nodes go, and the cluster is made again on other ports.
  for (let attempt = 1; ; attempt += 1) {
    ports = await freeNodePorts();
    try {
      servers = await spawnNodes();
      await execFileAsync(cliBinary, [
        ...tlsArgs,
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ]);
      break;
    } catch (error) {
      for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await Promise.all(servers.map((server) => server.exited));
      servers = [];
      if (attempt === 3) throw error;
    }
  }
  await settled();
  return {
    nodes: ports.map((port, index) => ({
      port,
      async kill() {
        killed.add(port);
        const server = servers[index] as (typeof servers)[number];
        if (server.child.exitCode === null) server.child.kill('SIGKILL');
        await server.exited;
      },
    })),
    seeds: ports.map((port) => `127.0.0.1:${port}`).join(','),
    target: {
      kind: 'cluster',
      nodes: ports.map((port) => ({ host: '127.0.0.1', port })),
      tls: tls !== undefined,
    },
    cli,
    primaries,
    slotOf: async (key) => Number((await cli(live()[0] as number, 'CLUSTER', 'KEYSLOT', key)).trim()),
    primaryOf,
    settled,
    async announceUnreachablePorts() {
      const announced = new Map<string, number>();
      for (const port of live()) {
        const unreachable = await freePort();
        await cli(port, 'CONFIG', 'SET', 'cluster-announce-port', String(unreachable));
        announced.set(`127.0.0.1:${unreachable}`, port);
      }
      const deadline = Date.now() + 20_000;
      for (;;) {
        const views = await Promise.all(live().map((port) => cli(port, '--json', 'CLUSTER', 'SLOTS')));
        const told = views.flatMap((view) =>
          (JSON.parse(view) as Array<[number, number, ...Array<[string, number]>]>).flatMap(
            ([, , ...nodes]) => nodes.map(([host, port]) => `${host}:${port}`),
          ),
        );
        if (told.every((address) => announced.has(address))) return announced;
        if (Date.now() > deadline)
          throw new Error('the nodes did not tell their announced ports within 20 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGTERM');
      await Promise.all(servers.map((server) => server.exited));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
