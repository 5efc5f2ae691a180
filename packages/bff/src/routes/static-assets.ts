/**
 * @module
 * Files the BFF serves as they are: the widget bundle (`/widget.js`, short cache; `/widget-chunks/*`,
 * content-hashed, cached for a year; both loadable from any partner page) and, as a hook for the demo or
 * a partner's own pages, a static site at `/`. Paths are resolved inside their root only.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../errors';
import type { AppEnv } from '../http/app-env';
import type { RouteHandlers } from './mount-routes';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export interface StaticAssetsOptions {
  /** The widget's script-tag build (`packages/widget/dist`); null: `/widget.js` is not found. */
  widgetDist: string | null;
  /** A static site served at `/` (the demo's `demo/dist`); null: nothing is served there. */
  siteRoot: string | null;
}

/** The file under `root` for a URL path, or null when it escapes the root, is hidden or does not exist. */
async function fileUnder(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split('/').some((part) => part.startsWith('.'))) return null;
  const base = resolve(root);
  let path = resolve(join(base, decoded));
  if (path !== base && !path.startsWith(base + sep)) return null;
  try {
    let info = await stat(path);
    if (info.isDirectory()) {
      path = join(path, 'index.html');
      info = await stat(path);
    }
    return info.isFile() ? path : null;
  } catch {
    return null;
  }
}

async function serveFile(path: string, headers: Record<string, string>): Promise<Response> {
  const body = await readFile(path);
  const type = CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  return new Response(body, {
    status: 200,
    headers: { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff', ...headers },
  });
}

/** Headers that let any partner page load the widget's scripts. */
const PUBLIC_SCRIPT_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

/** The widget bundle's routes. */
export function widgetAssetHandlers(
  options: StaticAssetsOptions,
): RouteHandlers<'widgetBundle' | 'widgetChunk'> {
  async function widgetBundle() {
    const path = options.widgetDist === null ? null : await fileUnder(options.widgetDist, '/widget.js');
    if (path === null) throw new ApiError('not_found', { params: { reason: 'widget_not_built' } });
    // Not hashed: a short cache, so that a deploy reaches partner pages within minutes.
    const response = await serveFile(path, {
      ...PUBLIC_SCRIPT_HEADERS,
      'Cache-Control': 'public, max-age=300',
    });
    return response;
  }

  async function widgetChunk(c: Context<AppEnv>) {
    const file = c.req.param('file') ?? '';
    const path =
      options.widgetDist === null ? null : await fileUnder(options.widgetDist, `/widget-chunks/${file}`);
    if (path === null) throw new ApiError('not_found');
    return await serveFile(path, {
      ...PUBLIC_SCRIPT_HEADERS,
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
  }

  return { widgetBundle, widgetChunk };
}

/**
 * The static site at `/` (the demo): not an API route, so not in the route table. Mount it last, for `GET *`:
 * it answers only what no route did.
 */
export function staticSite(options: StaticAssetsOptions): MiddlewareHandler<AppEnv> {
  return async function staticSite(c, next) {
    if (options.siteRoot === null || c.req.path.startsWith('/v1/')) return await next();
    const path = await fileUnder(options.siteRoot, c.req.path);
    if (path === null) return await next();
    const hashed = c.req.path.startsWith('/assets/');
    // Images here may be brand logos (`logoUrl: /partners/…`) shown by the widget on partner pages of other
    // sites; the app-wide `same-site` resource policy would block them there.
    const image = /\.(svg|png|jpe?g|gif|webp)$/i.test(path);
    return await serveFile(path, {
      'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(image ? { 'Cross-Origin-Resource-Policy': 'cross-origin' } : {}),
    });
  };
}
