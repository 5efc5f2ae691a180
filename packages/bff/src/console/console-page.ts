/**
 * @module
 * The console's page at `/console/`: the built files of `packages/console` (`dist/`, or the release's `console/`
 * folder), with a strict Content-Security-Policy — scripts and styles from the BFF's own origin only, no inline
 * script or style, no framing, requests to the BFF alone. A path that names no file is the page itself (the page
 * routes in the browser); hashed assets are cached for a year, the page never.
 */
import type { Hono } from 'hono';
import { createStaticFiles } from '../http/static-files';
import { fileUnder } from '../routes/static-assets';
import type { ConsoleEnv } from './console-auth';

/** The console page's policy: nothing but its own origin's files, and no inline code of any kind. */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Serve the console's page from `root` (a built `packages/console/dist`); nothing when null. */
export function serveConsolePage(app: Hono<ConsoleEnv>, root: string | null, compress: boolean): void {
  if (root === null) return;
  const files = createStaticFiles({ compress });
  app.get('/console', (c) => c.redirect('/console/', 308));
  app.get('/console/*', async function consolePage(c, next) {
    if (c.req.path.startsWith('/console/api/')) return await next();
    const path = c.req.path.slice('/console'.length) || '/';
    const found =
      (await fileUnder(root, path)) ??
      (path.startsWith('/assets/') ? null : await fileUnder(root, '/index.html'));
    if (found === null) return await next();
    const hashed = path.startsWith('/assets/');
    return await files.answer(c, found, {
      'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      'Content-Security-Policy': CONSOLE_CSP,
      'X-Frame-Options': 'DENY',
    });
  });
}
