/**
 * @module
 * Child process: the limit for the BFF — bare Hono routes on `@hono/node-server` that answer each BFF
 * route's path with the very bytes (status, content type, body) the BFF answered, doing nothing else
 * (a POST route reads its request body, as any handler of it must). Under `WITH_HEADERS` + the path,
 * the same route also writes every header the BFF's answer carried (security headers, CORS, request id,
 * ETag, …): what a route that does nothing but must answer like the BFF costs.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import { childOptions, serveParent } from '../child-process';
import { type BareRoute, WITH_HEADERS } from './bare-routes';

const routes = childOptions<BareRoute[]>();
const app = new Hono();
for (const route of routes) {
  const body = Buffer.from(route.body, 'base64');
  const status = route.status as 200;
  const answer = (headers: Record<string, string>) =>
    async function bareRoute(c: Context) {
      // Any handler of a POST must read its body: the limit reads it too, and answers the same bytes.
      if (route.method === 'POST') await c.req.arrayBuffer();
      return c.body(body, status, headers);
    };
  app.on(route.method, route.path, answer({ 'Content-Type': route.contentType }));
  app.on(route.method, `${WITH_HEADERS}${route.path}`, answer(route.headers));
}
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
  serveParent(
    { url: `http://127.0.0.1:${info.port}` },
    {},
    () => new Promise((resolve) => server.close(() => resolve())),
  );
});
