/**
 * How the BFF reaches a Redis Cluster it cannot reach as plainly as a test cluster on loopback: behind NAT, its
 * nodes announcing addresses the BFF cannot connect to, through `ESIM_BFF_REDIS_CLUSTER_NAT_MAP`; and over TLS
 * only (`ESIM_BFF_REDIS_TLS`), the server entry on a cluster whose certificate a private CA signed, trusted through
 * Node's own `NODE_EXTRA_CA_CERTS`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type RunningRedisCluster, startRedisCluster } from '../../testing/redis-server';
import { eventually, openWidget, SHOP_ORIGIN } from '../../testing/stack';
import { makeTestPki } from '../../testing/test-pki';
import { checkoutOnPage } from '../../testing/traveller-checkout';
import { readRedisDurability } from './redis-durability';
import { createRedisStore } from './redis-store';
import { type RedisClusterTarget, redisTargetFromEnvironment } from './redis-target';
import { type Store, StoreUnavailableError } from './store';

const TTL_MS = 600_000;
const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('a Redis Cluster behind NAT', () => {
  let cluster: RunningRedisCluster;
  /** `announced=reachable,…` for every node, as an operator writes it. */
  let natMap: string;
  const opened: Store[] = [];

  beforeAll(async () => {
    cluster = await startRedisCluster();
    const announced = await cluster.announceUnreachablePorts();
    natMap = [...announced].map(([address, port]) => `${address}=127.0.0.1:${port}`).join(',');
  }, 60_000);
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
    await cluster?.stop();
  });

  function storeOf(env: NodeJS.ProcessEnv, connectWaitMs: number) {
    const target = redisTargetFromEnvironment(env) as RedisClusterTarget;
    const keyPrefix = `nat-${randomBytes(4).toString('hex')}:`;
    const store = createRedisStore({ target, keyPrefix, connectWaitMs });
    opened.push(store);
    return { store, target, keyPrefix };
  }

  it('cannot be written to at the addresses its nodes announce', async () => {
    const { store } = storeOf({ ESIM_BFF_REDIS_CLUSTER_NODES: cluster.seeds }, 1_000);
    await expect(store.insert('entry', 'value', TTL_MS)).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('is written to, read and scanned on every primary through ESIM_BFF_REDIS_CLUSTER_NAT_MAP', async () => {
    const { store, target, keyPrefix } = storeOf(
      { ESIM_BFF_REDIS_CLUSTER_NODES: cluster.seeds, ESIM_BFF_REDIS_CLUSTER_NAT_MAP: natMap },
      5_000,
    );
    const names = Array.from({ length: 30 }, (_, index) => `entry:${index}`);
    for (const name of names) expect(await store.insert(name, `value of ${name}`, TTL_MS)).toBe(true);
    for (const name of names) expect((await store.get(name))?.value).toBe(`value of ${name}`);
    // The entries are spread over the three primaries, each reached through the map.
    const slots = await Promise.all(names.map((name) => cluster.slotOf(`${keyPrefix}${name}`)));
    expect(new Set(await Promise.all(slots.map((slot) => cluster.primaryOf(slot)))).size).toBe(3);
    const scanned: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { keys: string[]; cursor: string | null } = await store.scanKeys('entry:', cursor, 7);
      scanned.push(...page.keys);
      cursor = page.cursor;
    } while (cursor !== null);
    expect([...new Set(scanned)].sort()).toEqual([...names].sort());
    // The start's durability check reads every primary, each through the map too.
    expect((await readRedisDurability(target)).maxmemoryPolicy).toBe('noeviction');
  });
});

describe('a Redis Cluster that speaks only TLS', () => {
  let cluster: RunningRedisCluster;
  let sandbox: RunningSandbox;
  let folder: string;
  let caFile: string;

  beforeAll(async () => {
    const pki = makeTestPki();
    folder = mkdtempSync(join(tmpdir(), 'esim-cluster-tls-'));
    const file = (name: string, text: string) => {
      writeFileSync(join(folder, name), text, { mode: 0o600 });
      return join(folder, name);
    };
    caFile = file('ca.pem', pki.caCert);
    cluster = await startRedisCluster({
      tls: { certFile: file('node.pem', pki.nodeCert), keyFile: file('node.key', pki.nodeKey), caFile },
    });
    sandbox = await startSandbox({
      offerCount: 20,
      stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    });
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
    await sandbox?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  /** The server entry on the cluster, with `env` on top; resolves once it listens (or has exited). */
  async function startServer(env: Record<string, string>) {
    const port = await freePort();
    const config = join(folder, `config-${port}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        widgets: [
          {
            id: 'acme',
            displayName: 'Acme',
            environment: 'test',
            upstream: { baseUrl: sandbox.url, apiKeyEnv: 'ACME_KEY' },
            allowedOrigins: [SHOP_ORIGIN],
          },
        ],
      }),
    );
    let output = '';
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: packageRoot,
      env: {
        ...process.env,
        ESIM_BFF_CONFIG: config,
        ACME_KEY: SANDBOX_KEYS.globetrotter,
        ESIM_BFF_SESSION_SECRET: randomBytes(32).toString('base64'),
        PORT: String(port),
        HOST: '127.0.0.1',
        ESIM_BFF_REDIS_CLUSTER_NODES: cluster.seeds,
        ESIM_BFF_REDIS_TLS: 'true',
        ...env,
      },
    });
    for (const stream of [child.stdout, child.stderr])
      stream?.on('data', (chunk) => (output += String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let gone = false;
    void exited.then(() => (gone = true));
    const deadline = Date.now() + 30_000;
    while (!gone && !output.includes('"message":"BFF listening"') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return {
      url: `http://127.0.0.1:${port}`,
      output: () => output,
      /** `/readyz`'s status (0: no answer). */
      readiness: async () =>
        (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status ?? 0,
      async stop() {
        if (!gone) child.kill('SIGTERM');
        return await exited;
      },
    };
  }

  it('sells through the server entry on it, trusting its CA through NODE_EXTRA_CA_CERTS', async () => {
    const server = await startServer({ NODE_EXTRA_CA_CERTS: caFile });
    try {
      await eventually(async () => ((await server.readiness()) === 200 ? true : undefined), 20_000).catch(
        () => expect.fail(`never ready:\n${server.output()}`),
      );
      expect(server.output()).toMatch(/"redis":"cluster:\/\/127\.0\.0\.1:\d+(,127\.0\.0\.1:\d+){5} \(TLS\)"/);
      await checkoutOnPage(await openWidget(server.url, 'acme'));
      // What it wrote is on the cluster's primaries, read over TLS.
      const primaries = await cluster.primaries();
      const keys = await Promise.all(primaries.map(({ port }) => cluster.cli(port, 'DBSIZE')));
      expect(keys.reduce((sum, count) => sum + Number(count.trim()), 0)).toBeGreaterThan(0);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it('is never ready on a certificate it cannot verify: it does not fall back to an unchecked one', async () => {
    const server = await startServer({});
    try {
      expect(server.output()).toContain('"message":"BFF listening"');
      expect(server.output()).toContain('could not read the durability settings of Redis at start');
      // The operator is told which setting asked for TLS, why the handshake failed and what to do.
      expect(server.output()).toMatch(
        /"message":"store unreachable over TLS".*ESIM_BFF_REDIS_TLS.*NODE_EXTRA_CA_CERTS/,
      );
      expect(await server.readiness(), server.output()).toBe(503);
      // A page opens (an address's first session in a minute is counted in this instance's memory), but its first
      // read needs the store (it reserves the session's share of its rate limit there): refused.
      const page = await openWidget(server.url, 'acme');
      const read = await page.get('/v1/destinations');
      expect(read.status, read.text).toBe(503);
      expect(read.body.error.code).toBe('store_unavailable');
    } finally {
      expect(await server.stop(), server.output()).toBe(0);
    }
  }, 60_000);
});
