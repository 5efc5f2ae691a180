/**
 * Operations and files: health and readiness (reachable upstream, valid key; details only with the operations
 * token), the OpenAPI document built
 * from the shared schemas, the docs page, the widget bundle with its cache and CORS headers, and the
 * static-site hook at `/`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dereferenced } from '../../testing/openapi-document';
import { call, type Stack, startStack, testConfig } from '../../testing/stack';
import type { BffConfigInput } from '../config/config-schema';

const OPERATIONS_TOKEN = `ops-${randomBytes(24).toString('base64url')}`;
const OPERATIONS_ENV = { TEST_OPERATIONS_TOKEN: OPERATIONS_TOKEN };
const OPERATIONS = { Authorization: `Bearer ${OPERATIONS_TOKEN}` };
const withOperationsToken =
  (config: (url: string) => BffConfigInput) =>
  (url: string): BffConfigInput => ({ ...config(url), operationsTokenEnv: 'TEST_OPERATIONS_TOKEN' });

let stack: Stack;
const widgetDist = mkdtempSync(join(tmpdir(), 'widget-dist-'));
const siteRoot = mkdtempSync(join(tmpdir(), 'site-'));

beforeAll(async () => {
  mkdirSync(join(widgetDist, 'widget-chunks'));
  writeFileSync(join(widgetDist, 'widget.js'), 'import("./widget-chunks/app-abc123.js");');
  writeFileSync(join(widgetDist, 'widget-chunks', 'app-abc123.js'), 'export const app = 1;');
  writeFileSync(join(widgetDist, 'integrity.json'), JSON.stringify({ version: '1.0.0', files: {} }));
  writeFileSync(join(widgetDist, 'secret.txt'), 'not served');
  mkdirSync(join(siteRoot, 'spa'));
  mkdirSync(join(siteRoot, 'assets'));
  writeFileSync(join(siteRoot, 'index.html'), '<!doctype html><title>demo</title>');
  writeFileSync(join(siteRoot, 'spa', 'index.html'), '<!doctype html><title>spa</title>');
  writeFileSync(join(siteRoot, 'assets', 'main-1a2b3c.css'), 'body{}');
  writeFileSync(join(siteRoot, '.env'), 'SECRET=1');
  stack = await startStack({
    widgetDist,
    siteRoot,
    config: withOperationsToken(testConfig),
    env: OPERATIONS_ENV,
  });
});
afterAll(async () => {
  await stack?.close();
});

describe('health and readiness', () => {
  it('answers healthz', async () => {
    const answer = await call(stack.server.url, '/healthz');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok' });
  });

  it('is ready when every widget’s upstream answers with a valid key', async () => {
    const answer = await call(stack.server.url, '/readyz', { headers: OPERATIONS });
    expect(answer.status).toBe(200);
    expect(answer.body.checks).toMatchObject({ store: 'ok', 'widget:shop': 'ok', 'widget:shop-rub': 'ok' });
  });

  it('tells anyone the status only; the checks (and so the widget ids) need the operations token', async () => {
    const presented: Record<string, string>[] = [
      {},
      { Authorization: `Bearer ${OPERATIONS_TOKEN}x` },
      { Authorization: OPERATIONS_TOKEN },
    ];
    for (const headers of presented) {
      const answer = await call(stack.server.url, '/readyz', { headers });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: 'ready' });
    }
  });

  it('is not ready with a revoked key, nor when the upstream is down', async () => {
    const other = await startStack({
      config: withOperationsToken((url) => ({
        ...testConfig(url),
        widgets: testConfig(url).widgets.slice(0, 1),
      })),
      env: { ...OPERATIONS_ENV, TEST_UPSTREAM_KEY: 'sk_test_not_a_real_key_000000' },
    });
    try {
      const badKey = await call(other.server.url, '/readyz', { headers: OPERATIONS });
      expect(badKey.status).toBe(503);
      expect(badKey.body.checks['widget:shop']).toBe('upstream_key_invalid');
      expect(badKey.text).not.toContain('sk_test_not_a_real_key');
    } finally {
      await other.close();
    }
    const down = await startStack({ config: withOperationsToken(testConfig), env: OPERATIONS_ENV });
    await down.sandbox.close();
    try {
      const answer = await call(down.server.url, '/readyz', { headers: OPERATIONS });
      expect(answer.status).toBe(503);
      expect(answer.body.checks['widget:shop']).toBe('upstream_unavailable');
    } finally {
      await down.server.close();
    }
  });
});

/** A webhook of the OpenAPI document, as far as the test reads it. */
interface WebhookOperation {
  post: {
    parameters: { name: string }[];
    requestBody: {
      content: Record<string, { schema: { required: string[]; properties: { type: { const: string } } } }>;
    };
  };
}

describe('OpenAPI and docs', () => {
  it('describes every route with the shared schemas', async () => {
    const answer = await call(stack.server.url, '/openapi.json');
    expect(answer.status).toBe(200);
    const document = answer.body;
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/v1/sessions',
        '/v1/destinations',
        '/v1/destinations/{code}/plans',
        '/v1/quotes',
        '/v1/checkouts',
        '/v1/checkouts/{id}',
        '/v1/checkouts/{id}/installation',
        '/v1/checkouts/{id}/delivery-links',
        '/v1/partner/checkouts/{id}',
        '/v1/partner/checkouts/{id}/payment-started',
        '/v1/partner/checkouts/{id}/confirm',
        '/v1/partner/checkouts/{id}/cancel',
        '/v1/checkouts/{id}/manage-link',
        '/v1/my-esim',
        '/v1/my-esim/installation',
        '/v1/partner/esims/{esimId}',
        '/v1/partner/esims/{esimId}/manage-links',
        '/v1/partner/esims/{esimId}/action-requests',
        '/v1/partner/action-requests/{id}',
        '/v1/partner/manage-links/{id}/revoke',
        '/v1/partner/esims/{esimId}/delivery-links',
        '/v1/partner/delivery-links/{id}/revoke',
      ]),
    );
    // After the sale: the manage token header, and the signed webhook event.
    const myEsim = document.paths['/v1/my-esim'].get;
    expect(myEsim.parameters.map((parameter: { name: string }) => parameter.name)).toContain(
      'X-Manage-Token',
    );
    // One webhook per event type, each signed and with its own body: its id, type and data.
    expect(Object.keys(document.webhooks)).toEqual(
      expect.arrayContaining([
        'checkout.completed',
        'esim.ready',
        'account.balance_low',
        'action_request.updated',
      ]),
    );
    for (const [type, webhook] of Object.entries(document.webhooks as Record<string, WebhookOperation>)) {
      const event = webhook.post;
      expect(event.parameters.map((parameter) => parameter.name)).toContain('Esim-Signature');
      const schema = event.requestBody.content['application/json']?.schema;
      if (schema === undefined) throw new Error(`${type} has no JSON body`);
      expect(schema.required).toEqual(expect.arrayContaining(['id', 'type', 'data']));
      expect(schema.properties.type.const).toBe(type);
    }
    const checkout = document.paths['/v1/checkouts'].post;
    const body = checkout.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['quoteId', 'locale', 'termsAccepted']));
    expect(body.properties.termsAccepted.const).toBe(true);
    expect(body.additionalProperties).toBe(false);
    expect(checkout.parameters.map((parameter: { name: string }) => parameter.name)).toContain(
      'Idempotency-Key',
    );
    const created = dereferenced(document, checkout.responses['201'].content['application/json'].schema) as {
      properties: { data: { required: string[] } };
    };
    expect(created.properties.data.required).toContain('clientSecret');
    expect(document.paths['/v1/partner/checkouts/{id}/confirm'].post.security).toEqual([
      { partnerSecret: [] },
    ]);
  });

  it('serves a docs page', async () => {
    const answer = await call(stack.server.url, '/docs');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/text\/html/);
    expect(answer.text).toContain('/v1/partner/checkouts/{id}/confirm');
  });
});

describe('widget bundle and static site', () => {
  it('serves widget.js to any page with a short cache', async () => {
    const answer = await call(stack.server.url, '/widget.js', {
      headers: { Origin: 'https://anyone.example' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('serves hashed chunks for a year, and nothing outside them', async () => {
    const chunk = await call(stack.server.url, '/widget-chunks/app-abc123.js');
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of ['/widget-chunks/..%2Fsecret.txt', '/widget-chunks/missing.js', '/secret.txt']) {
      const answer = await call(stack.server.url, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
  });

  it('serves the static site at / without shadowing the API or exposing dotfiles', async () => {
    const index = await call(stack.server.url, '/');
    expect(index.status).toBe(200);
    expect(index.text).toContain('<title>demo</title>');
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    expect(index.headers.get('x-frame-options')).toBeTruthy();
    expect((await call(stack.server.url, '/spa/')).text).toContain('<title>spa</title>');
    const asset = await call(stack.server.url, '/assets/main-1a2b3c.css');
    expect(asset.headers.get('content-type')).toMatch(/text\/css/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    for (const path of ['/.env', '/%2e%2e/%2e%2e/etc/passwd', '/v1/index.html']) {
      expect((await call(stack.server.url, path)).status, path).toBe(404);
    }
  });
});
