/**
 * @module
 * The partner pages of the browser tests: small HTML files from `e2e/pages`, served on a loopback origin of
 * their own (a partner's site is never the BFF's origin). `{{name}}` placeholders are filled from the stack's
 * URLs and the page's query (`/embed.html?widget=e2e-direct&locale=fr`), HTML-escaped; a page listed in
 * `headers` gets extra response headers (the strict Content-Security-Policy page). The built example apps are
 * served as they are, `/examples/<name>/…` from `examples/<name>/dist/`.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

const PAGES_DIR = fileURLToPath(new URL('../pages/', import.meta.url));
const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/', import.meta.url));
/** `/examples/<name>/<file>`: a file of an example's build (no `..`: names and file segments are word-like). */
const EXAMPLE_FILE = /^\/examples\/([\w-]+)\/((?:[\w-]+\/)*[\w.-]*)$/;
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** A running page server. */
export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

export interface PageServerOptions {
  /** Loopback address to listen on (`127.0.0.1`, `127.0.0.2` for a second origin). */
  host: string;
  /** The host name pages are opened with (`localhost`: another site than the BFF on 127.0.0.1). */
  hostname?: string;
  /** Values for `{{name}}` placeholders, before the query's. */
  values: Record<string, string>;
  /** Extra headers per page path (`/strict-csp.html`), with placeholders filled too. */
  headers?: Record<string, Record<string, string>>;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function fill(template: string, values: Record<string, string>, encode: (value: string) => string): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`page placeholder {{${name}}} has no value`);
    return encode(value);
  });
}

/** Sends a file of an example app's build, or 404 (the suite's global setup builds the examples). */
async function sendExampleFile(response: ServerResponse, example: string, file: string): Promise<void> {
  if (file.split('/').some((segment) => segment.startsWith('.'))) {
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    return;
  }
  try {
    const body = await readFile(`${EXAMPLES_DIR}${example}/dist/${file}`);
    response
      .writeHead(200, {
        'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-store',
      })
      .end(body);
  } catch {
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
  }
}

/** Serves `e2e/pages` and the built examples on `host`, on a free port. */
export async function startPageServer(options: PageServerOptions): Promise<PageServer> {
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://page.invalid');
    if (url.pathname === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    const exampleFile = EXAMPLE_FILE.exec(url.pathname);
    if (exampleFile) {
      const [, example, file] = exampleFile as unknown as [string, string, string];
      await sendExampleFile(response, example, file || 'index.html');
      return;
    }
    const name = url.pathname.replace(/^\//, '') || 'index.html';
    if (!/^[\w-]+\.html$/.test(name)) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    try {
      const template = await readFile(`${PAGES_DIR}${name}`, 'utf8');
      const values: Record<string, string> = { locale: 'en', theme: 'light', ...options.values };
      for (const [key, value] of url.searchParams) values[key] = value;
      const extra = Object.fromEntries(
        Object.entries(options.headers?.[url.pathname] ?? {}).map(([header, value]) => [
          header,
          fill(value, values, (text) => text),
        ]),
      );
      response
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...extra })
        .end(fill(template, values, escapeHtml));
    } catch (cause) {
      const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
      response.writeHead(missing ? 404 : 500, { 'Content-Type': 'text/plain' }).end(String(cause));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${options.hostname ?? options.host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
