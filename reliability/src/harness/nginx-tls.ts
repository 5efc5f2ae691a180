/**
 * @module
 * Debian's nginx in front of a BFF, ending TLS, as an operator runs it: a site config (the release's
 * `deploy/nginx/esim-embed.conf`, its placeholders replaced) included in a main config of a temporary folder —
 * `daemon off`, its pid, logs, temporary files and cache there — with a self-signed certificate that `openssl`
 * makes for `127.0.0.1`; and HTTPS calls that trust that certificate alone, each from a chosen loopback address
 * (any of 127.0.0.0/8), so that nginx sees clients of different addresses. A missing nginx or openssl is an error
 * naming `scripts/system-deps.mjs`, never a skipped test.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Answer } from '@esim-embed/bff/testing';

const NGINX = '/usr/sbin/nginx';
const OPENSSL = '/usr/bin/openssl';

/** A self-signed certificate for `127.0.0.1`: its files, and its PEM to trust. */
export interface Certificate {
  certFile: string;
  keyFile: string;
  pem: string;
}

/** Whether `path` is there, else an error that says how to get it. */
function required(path: string, aptPackage: string): string {
  if (!existsSync(path)) {
    throw new Error(
      `${path} is missing: the release test runs Debian's ${aptPackage}. Run \`node scripts/system-deps.mjs\` ` +
        `(as root it installs it; otherwise \`sudo apt-get install ${aptPackage}\`).`,
    );
  }
  return path;
}

/** `openssl req -x509` into `dir`: an EC key and a certificate for the IP 127.0.0.1, valid a day. */
export function selfSignedCertificate(dir: string): Certificate {
  const certFile = join(dir, 'bff.crt');
  const keyFile = join(dir, 'bff.key');
  execFileSync(
    required(OPENSSL, 'openssl'),
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return { certFile, keyFile, pem: readFileSync(certFile, 'utf8') };
}

/** A running nginx. */
export interface RunningNginx {
  /** Its error log so far (where nginx says why it refused something). */
  errors(): string;
  stop(): Promise<void>;
}

/**
 * Start nginx on `site(dir)` (a config of the `http` context, placeholders replaced; `dir` is nginx's folder, for
 * its cache) and wait until `port` answers TLS. The folder is removed when it stops.
 */
export async function startNginx(options: {
  site: (dir: string) => string;
  port: number;
}): Promise<RunningNginx> {
  // A folder of its own in the system's temporary folder: nginx's workers run as another user when it runs as
  // root, and enter it for their temporary files and the cache (a test's private folder would shut them out).
  const dir = mkdtempSync(join(tmpdir(), 'esim-nginx-'));
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(dir, 'esim-embed.conf'), options.site(dir));
  const temp = (name: string) => `${name} ${join(dir, name)};`;
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'logs/error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      `  access_log off;`,
      `  ${temp('client_body_temp_path')}`,
      `  ${temp('proxy_temp_path')}`,
      `  ${temp('fastcgi_temp_path')}`,
      `  ${temp('uwsgi_temp_path')}`,
      `  ${temp('scgi_temp_path')}`,
      `  include ${join(dir, 'esim-embed.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const errorLog = join(dir, 'logs/error.log');
  let output = '';
  const child: ChildProcess = spawn(
    required(NGINX, 'nginx'),
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', errorLog],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const heard = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', heard);
  child.stderr?.on('data', heard);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const errors = () => `${output}${existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const state = await Promise.race([
      exited.then((code) => `exited ${code}`),
      tlsAnswers(options.port).then((answers) => (answers ? 'up' : 'not yet')),
    ]);
    if (state === 'up') break;
    if (state.startsWith('exited') || Date.now() > deadline) {
      child.kill('SIGKILL');
      const said = errors();
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nginx did not start (${state}):\n${said}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether something completes a TLS handshake on the loopback `port` (any certificate). */
function tlsAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = request({ host: '127.0.0.1', port, path: '/', method: 'HEAD', rejectUnauthorized: false });
    probe.once('response', (response) => {
      response.resume();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
    probe.end();
  });
}

/**
 * An HTTPS call to `origin` that trusts `ca` alone, made from the loopback address `from`: the answer as the
 * BFF's tests read it (`call` of `@esim-embed/bff/testing`), with every header line kept — a header sent twice
 * reads as its values joined by `, `.
 */
export function httpsCall(
  origin: string,
  path: string,
  init: {
    ca: string;
    from?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
  },
): Promise<Answer> {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: init.method ?? 'GET',
        ca: init.ca,
        localAddress: init.from,
        agent: false,
        headers: {
          ...init.headers,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          const raw = response.rawHeaders;
          for (let index = 0; index < raw.length; index += 2)
            headers.append(raw[index] as string, raw[index + 1] as string);
          let json: unknown;
          try {
            json = text === '' ? undefined : JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers, body: json, text } as Answer);
        });
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}
