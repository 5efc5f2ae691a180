/**
 * @module
 * Child process: the limit for the BFF — bare Hono routes on `@hono/node-server` that answer each BFF
 * route's path with the very bytes (status, content type, body) the BFF answered, doing nothing else
 * (a POST route reads its request body, as any handler of it must).
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { childOptions, serveParent } from '../child-process';

/** A route to answer and the bytes to answer it with. */
export interface BareRoute {
  method: 'GET' | 'POST';
  /** A Hono path pattern (`/v1/destinations/:code/plans`). */
  path: string;
  status: number;
  contentType: string;
  /** The body, base64. */
  body: string;
}

const routes = childOptions<BareRoute[]>();
const app = new Hono();
for (const route of routes) {
  const body = Buffer.from(route.body, 'base64');
  const status = route.status as 200;
  app.on(route.method, route.path, async function bareRoute(c) {
    // Any handler of a POST must read its body: the limit reads it too, and answers the same bytes.
    if (route.method === 'POST') await c.req.arrayBuffer();
    return c.body(body, status, { 'Content-Type': route.contentType });
  });
}
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
  serveParent(
    { url: `http://127.0.0.1:${info.port}` },
    {},
    () => new Promise((resolve) => server.close(() => resolve())),
  );
});
