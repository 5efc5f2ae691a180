/**
 * @module
 * The public catalog behind a real caching proxy: Debian's nginx with `proxy_cache` on loopback in front of one
 * BFF, as a CDN or the partner's own reverse proxy would stand. A versioned catalog read is loaded through the
 * proxy and against the BFF alone; reported: requests per second of each, the proxy's hit ratio (from its
 * `X-Cache-Status`), and how many of the proxied reads reached the BFF at all.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@esim-embed/bff/testing';
import { BENCH_ENV, BENCH_ORIGIN, BENCH_WIDGET, benchConfig } from './bench-config';
import { call } from './bench-http';
import { type BenchChild, startChild } from './child-process';
import type { LoadSpec, ThroughputResult } from './load-spec';
import { check, fmt, type Section, table } from './report';
import type { BffInfo } from './servers/bff-server';
import type { SandboxInfo } from './servers/sandbox-server';

/** nginx on `port` in front of `upstream`, caching what the BFF marks public; stopped by the returned function. */
async function startNginx(port: number, upstream: string): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'esim-bench-nginx-'));
  // nginx's workers drop to an unprivileged user: they must reach the cache and temp folders below this one.
  chmodSync(dir, 0o755);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  proxy_temp_path ${dir}/proxy-temp;
  client_body_temp_path ${dir}/body-temp;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=catalog:10m max_size=100m inactive=60m use_temp_path=off;
  upstream bff { server ${new URL(upstream).host}; keepalive 32; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://bff;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache catalog;
      proxy_cache_lock on;
      add_header X-Cache-Status $upstream_cache_status always;
    }
  }
}
`,
  );
  const nginx = spawn('nginx', ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  nginx.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => nginx.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (nginx.exitCode !== null) throw new Error(`nginx did not start: ${stderr}`);
    const ready = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      nginx.kill();
      const log = readFileSync(join(dir, 'error.log'), 'utf8');
      throw new Error(`nginx did not answer within 10 s: ${stderr}${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return async () => {
    nginx.kill('SIGQUIT');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
}

/** Requests through the proxy, one after another, by cache status. */
async function cacheStatuses(url: string, requests: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (let index = 0; index < requests; index += 1) {
    const answer = await fetch(url);
    await answer.arrayBuffer();
    const status = answer.headers.get('x-cache-status') ?? 'none';
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

/** The proxy-cache section of `pnpm bench`. */
export async function proxyCacheSection(
  load: BenchChild<unknown>,
  settings: { connections: number; durationSeconds: number },
): Promise<Section> {
  const sandbox = await startChild<SandboxInfo>('servers/sandbox-server.ts', { offerCount: 1_000 });
  const bff = await startChild<BffInfo>(
    'servers/bff-server.ts',
    { config: benchConfig(sandbox.info.url), env: BENCH_ENV, logLevel: 'warn' },
    { stdout: 'ignore' },
  );
  const proxyPort = await freePort();
  let stopNginx: (() => Promise<void>) | undefined;
  try {
    stopNginx = await startNginx(proxyPort, bff.info.url);
    const session = await call(`${bff.info.url}/v1/sessions`, {
      method: 'POST',
      headers: { Origin: BENCH_ORIGIN },
      body: { widgetId: BENCH_WIDGET },
    });
    const path = `${session.json.data.catalog.path as string}/en/destinations`;
    const proxied = `http://127.0.0.1:${proxyPort}`;
    const statuses = await cacheStatuses(`${proxied}${path}`, 200);
    const hits = statuses.HIT ?? 0;
    const spec = (baseUrl: string): LoadSpec => ({
      baseUrl,
      method: 'GET',
      variants: [{ path }],
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: 0,
      probeRequests: 0,
    });
    const direct = await load.ask<ThroughputResult>('run', spec(bff.info.url));
    const bffCpuBefore = await bff.ask<number>('cpu');
    const through = await load.ask<ThroughputResult>('run', spec(proxied));
    const bffCpuThrough = (await bff.ask<number>('cpu')) - bffCpuBefore;
    const ratio = hits / 200;
    return {
      title: 'The public catalog behind a caching proxy',
      command: 'npx -y pnpm@12.21.0 bench --only proxy',
      lines: [
        `Debian's nginx with \`proxy_cache\` on loopback in front of one BFF (one worker process each side of the ` +
          `load generator), reading \`${path.replace(/\/v1\/catalog\/[^/]+\/[^/]+/, '/v1/catalog/{widget}/{version}')}\`: ` +
          `200 reads one after another for the hit ratio, then ${settings.connections} connections for ` +
          `${settings.durationSeconds} s against each.`,
        '',
        ...table(
          ['read', 'req/s', 'p50 under load', 'p99 under load', 'failures'],
          [
            [
              'BFF alone',
              fmt.int(direct.rps),
              fmt.ms(direct.loaded.p50),
              fmt.ms(direct.loaded.p99),
              fmt.int(direct.failures),
            ],
            [
              'through the proxy',
              fmt.int(through.rps),
              fmt.ms(through.loaded.p50),
              fmt.ms(through.loaded.p99),
              fmt.int(through.failures),
            ],
          ],
        ),
        ...table(
          ['figure', 'value'],
          [
            [
              'cache statuses of 200 reads',
              Object.entries(statuses)
                .map(([k, v]) => `${k}×${v}`)
                .join(' '),
            ],
            ['hit ratio', fmt.percent(ratio)],
            ['BFF CPU while the proxy served the load', `${(bffCpuThrough / 1000).toFixed(0)} ms`],
          ],
        ),
      ],
      checks: [
        check(
          'proxy.hit-ratio',
          'catalog reads answered by the proxy’s cache',
          ratio,
          '>=',
          0.99,
          fmt.percent,
        ),
        check('proxy.failures', 'failed reads through the proxy', through.failures, '<=', 0, fmt.int),
      ],
    };
  } finally {
    await stopNginx?.();
    await bff.stop();
    await sandbox.stop();
  }
}
