/**
 * The Node entry as an operator runs it: a bad config stops the start with the field named; a good one
 * serves, is ready against the sandbox, and stops cleanly on SIGTERM. Each test starts its own processes (own
 * port, own data directory), so the tests run side by side.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../testing/redis-server';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ offerCount: 100 });
});
afterAll(async () => {
  await sandbox?.close();
});

function writeConfig(value: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'bff-server-')), 'config.json');
  writeFileSync(path, JSON.stringify(value));
  return path;
}

function run(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  let output = '';
  // The runner's environment without a HOST of its own: a test that sets none gets the server's default.
  const { HOST: _runnersHost, ...inherited } = process.env;
  // One Node process with tsx as a loader: the tsx CLI would wrap the server in a second process and relay
  // signals, and the wrapper's own exit code (143 after a SIGTERM) would stand in for the server's.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: packageRoot,
    // Each process its own data directory (the embedded store allows one process per directory).
    env: { ...inherited, ESIM_BFF_DATA_DIR: mkdtempSync(join(tmpdir(), 'bff-server-data-')), ...env },
  });
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

const widget = (baseUrl: string) => ({
  id: 'acme',
  displayName: 'Acme',
  environment: 'test',
  upstream: { baseUrl, apiKeyEnv: 'ACME_KEY' },
  allowedOrigins: ['https://acme.example'],
});

describe.concurrent('server entry', () => {
  it('refuses to start with an invalid config, naming the field', async () => {
    const path = writeConfig({ widgets: [{ ...widget(sandbox.url), allowedOrigins: ['acme.example'] }] });
    const { output, exited } = run({ ESIM_BFF_CONFIG: path, ACME_KEY: 'x', NODE_ENV: 'production' });
    expect(await exited).toBe(1);
    expect(output()).toMatch(/cannot start/);
    expect(output()).toMatch(/widgets\[0\]\.allowedOrigins\[0\]/);
  });

  it('refuses to start in production without the secrets the config names', async () => {
    const path = writeConfig({ widgets: [widget(sandbox.url)] });
    const { output, exited } = run({ ESIM_BFF_CONFIG: path, NODE_ENV: 'production' });
    expect(await exited).toBe(1);
    expect(output()).toMatch(/ACME_KEY/);
  });

  it('serves, is ready, and stops on SIGTERM', async () => {
    const port = await freePort();
    const path = writeConfig({ widgets: [widget(sandbox.url)] });
    const { child, output, exited } = run({
      ESIM_BFF_CONFIG: path,
      ACME_KEY: SANDBOX_KEYS.globetrotter,
      ESIM_BFF_SESSION_SECRET: randomBytes(32).toString('base64'),
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    const deadline = Date.now() + 20_000;
    let ready: Response | undefined;
    while (Date.now() < deadline) {
      ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
      if (ready?.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ready?.status, output()).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).toMatch(/"message":"BFF listening"/);
    expect(output()).not.toContain(SANDBOX_KEYS.globetrotter);
  });

  it('listens on loopback unless HOST says otherwise, its start-up line naming the address bound', async () => {
    const listeningUrl = async (host: string | undefined) => {
      const started = run({
        ...(host === undefined ? {} : { HOST: host }),
        ESIM_BFF_CONFIG: writeConfig({ widgets: [widget(sandbox.url)] }),
        ACME_KEY: SANDBOX_KEYS.globetrotter,
        ESIM_BFF_SESSION_SECRET: randomBytes(32).toString('base64'),
        NODE_ENV: 'production',
        PORT: '0',
      });
      const url = await new Promise<string>((resolve, reject) => {
        started.child.stdout?.on('data', () => {
          const line = /"message":"BFF listening".*?"url":"([^"]+)"/.exec(started.output());
          if (line !== null) resolve(line[1] as string);
        });
        void started.exited.then(() => reject(new Error(started.output())));
      });
      return { url, port: new URL(url).port, stop: () => started.child.kill('SIGTERM') };
    };

    const byDefault = await listeningUrl(undefined);
    const ipv6 = await listeningUrl('::1');
    try {
      expect(byDefault.url).toBe(`http://127.0.0.1:${byDefault.port}`);
      expect(ipv6.url).toBe(`http://[::1]:${ipv6.port}`);
      // The machine's other addresses do not reach the default one: only what runs on this host (its proxy) does.
      const outside = Object.values(networkInterfaces())
        .flat()
        .filter((address) => address !== undefined && !address.internal && address.family === 'IPv4')
        .map((address) => address?.address as string);
      const reached = await Promise.all(
        outside.map(
          (address) =>
            new Promise<string>((resolve) => {
              const socket = connect({ host: address, port: Number(byDefault.port) });
              socket.once('connect', () => {
                socket.destroy();
                resolve(`${address}: connected`);
              });
              socket.once('error', (error: NodeJS.ErrnoException) => resolve(`${address}: ${error.code}`));
            }),
        ),
      );
      expect(reached).toEqual(outside.map((address) => `${address}: ECONNREFUSED`));
    } finally {
      byDefault.stop();
      ipv6.stop();
    }
    // Two processes at once beside the other tests' (a busy machine takes seconds to start each under tsx).
  }, 60_000);

  it('refuses a data directory others may read or enter, in one line that names the chmod', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bff-server-open-data-'));
    chmodSync(dataDir, 0o777);
    const { child, output, exited } = run({
      ESIM_BFF_CONFIG: writeConfig({ widgets: [widget(sandbox.url)] }),
      ACME_KEY: SANDBOX_KEYS.globetrotter,
      ESIM_BFF_SESSION_SECRET: randomBytes(32).toString('base64'),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      ESIM_BFF_DATA_DIR: dataDir,
    });
    // Settled by the process itself: it stops (refused) or says it listens (accepted, and is stopped).
    const listening = new Promise<'listening'>((resolve) =>
      child.stdout?.on('data', () => {
        if (/"message":"BFF listening"/.test(output())) resolve('listening');
      }),
    );
    const outcome = await Promise.race([exited, listening]);
    if (outcome === 'listening') child.kill('SIGTERM');
    expect(outcome, output()).toBe(1);
    expect(output()).toMatch(
      new RegExp(
        `cannot start\\.\\nthe data directory ${dataDir} is open to other users of this host \\(mode 0777\\)`,
      ),
    );
    expect(output()).toContain(`chmod 700 ${dataDir}`);
    expect(output()).not.toMatch(/\n\s+at /);
  });

  it('keeps its state in the embedded store and refuses a second process on the same data directory', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'bff-server-shared-data-'));
    const env = {
      ESIM_BFF_CONFIG: writeConfig({ widgets: [widget(sandbox.url)] }),
      ACME_KEY: SANDBOX_KEYS.globetrotter,
      ESIM_BFF_SESSION_SECRET: randomBytes(32).toString('base64'),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      ESIM_BFF_DATA_DIR: dataDir,
    };
    const first = run({ ...env, PORT: String(port) });
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !/"message":"BFF listening"/.test(first.output())) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(first.output()).toMatch(/"store":"embedded","dataDir":"[^"]+bff-server-shared-data-/);
    const second = run({ ...env, PORT: '0' });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/cannot start\.\nthe data directory .* is in use by another BFF process/);
    expect(second.output()).not.toMatch(/\n\s+at /);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });
});
