/**
 * A refused delivery is logged by default: real Express and Hono apps on loopback ports, given a delivery signed
 * with another secret, answer 400 and write one warning line through `logger` (or `console.warn` when none is
 * given) that names the reason and carries neither the body nor a secret; `onError` replaces the report.
 */
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '@esim-embed/shared';
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { webhookHandler as expressWebhookHandler } from './express';
import { webhookHandler as honoWebhookHandler } from './hono';
import type { WebhookHandlerOptions } from './webhook-handler';

const SECRET = 'whsec_the_right_one';
const OTHER_SECRET = 'whsec_an_attacker_guess';
const BODY = JSON.stringify({ id: 'evt_refused', type: 'checkout.completed', traveller: 'ana@example.com' });
const servers: Server[] = [];

type App = (options: WebhookHandlerOptions) => RequestListener;
const apps: Record<string, App> = {
  express: (options) => express().post('/hooks', expressWebhookHandler(options)) as never,
  hono: (options) =>
    getRequestListener(new Hono().post('/hooks', honoWebhookHandler(options)).fetch) as never,
};

async function deliverForged(app: RequestListener): Promise<number> {
  const server = createServer(app).listen(0, '127.0.0.1');
  servers.push(server);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const signature = await signWebhook(OTHER_SECRET, BODY, Math.floor(Date.now() / 1000));
  const response = await fetch(`http://127.0.0.1:${port}/hooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature },
    body: BODY,
  });
  await response.arrayBuffer();
  return response.status;
}

afterEach(() => vi.restoreAllMocks());
afterAll(() => {
  for (const server of servers) server.close();
});

describe.each(Object.keys(apps))('the %s webhook handler, given a forged delivery', (name) => {
  const app = apps[name] as App;

  it('answers 400 and warns in one line through the logger, naming the reason and nothing it carried', async () => {
    const warnings: string[] = [];
    const logger = { warn: (line: string) => warnings.push(line), error: () => {} };
    expect(await deliverForged(app({ secret: SECRET, logger }))).toBe(400);
    expect(warnings).toHaveLength(1);
    const [line = ''] = warnings;
    expect(line).toMatch(/^eSIM Embed webhook refused with 400: signature_mismatch/);
    expect(line).not.toContain('\n');
    for (const secretOrBody of [SECRET, OTHER_SECRET, 'evt_refused', 'ana@example.com'])
      expect(line).not.toContain(secretOrBody);
  });

  it('warns through console.warn when no logger is given, and not at all when onError takes it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await deliverForged(app({ secret: SECRET }))).toBe(400);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/webhook refused with 400: signature_mismatch/);
    const heard: unknown[] = [];
    expect(await deliverForged(app({ secret: SECRET, onError: (error) => heard.push(error) }))).toBe(400);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(heard).toHaveLength(1);
  });
});
