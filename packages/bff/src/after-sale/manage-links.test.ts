/**
 * Manage tokens and the partner's after-sale API over HTTP against the real sandbox: tampered, expired,
 * revoked and foreign tokens are refused; the partner mints and revokes links, reads the eSIM, and creates
 * and follows help requests only where the eSIM's actions allow them — never from a browser.
 */
import {
  EsimViewResponseSchema,
  ManageLinkResponseSchema,
  PARTNER_SECRET_HEADER,
  PartnerActionRequestResponseSchema,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BoughtEsim, buyEsim, myEsim } from '../testing/after-sale-flow';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  type WidgetPage,
} from '../testing/stack';
import { createManageTokens } from './manage-token';

let stack: Stack;
let page: WidgetPage;
let bought: BoughtEsim;
beforeAll(async () => {
  stack = await startStack();
  page = await openWidget(stack.server.url, 'shop');
  bought = await buyEsim(page);
});
afterAll(async () => {
  await stack?.close();
});

const partner = (
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) =>
  call(stack.server.url, path, {
    ...init,
    headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, ...init.headers },
  });

const expectInvalid = async (token: string, reason?: string) => {
  const answer = await myEsim(page, token);
  expect(answer.status).toBe(401);
  expect(answer.body.error.code).toBe('widget_session_invalid');
  if (reason !== undefined) expect(answer.body.error.params.reason).toBe(reason);
};

describe('manage tokens', () => {
  it('a manage link from a ready checkout opens the eSIM, from any later session of the widget', async () => {
    expect(bought.manageToken.split('.')).toHaveLength(3);
    const later = await openWidget(stack.server.url, 'shop', 'https://app.shop.example');
    const view = await myEsim(later, bought.manageToken);
    expect(view.status).toBe(200);
    expect(EsimViewResponseSchema.parse(view.body).data.esimId).toBe(bought.esimId);
  });

  it('refuses a tampered token (payload or signature changed)', async () => {
    const [header, payload, signature] = bought.manageToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const otherPayload = Buffer.from(JSON.stringify({ ...claims, esim: 'esim_someone_else' })).toString(
      'base64url',
    );
    await expectInvalid(`${header}.${otherPayload}.${signature}`, 'signature');
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    await expectInvalid(`${header}.${payload}.${flipped}`, 'signature');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    await expectInvalid(`${none}.${payload}.${signature}`, 'algorithm');
    await expectInvalid('not-a-token', 'malformed');
  });

  it('refuses a session token as a manage token, and a missing one', async () => {
    // Signed with another key (manage tokens have their own), and of another shape.
    await expectInvalid(page.token, 'signature');
    const missing = await page.get('/v1/my-esim');
    expect(missing.status).toBe(401);
    expect(missing.body.error.params.reason).toBe('manage_token_missing');
  });

  it('refuses an expired token', async () => {
    // Minted 400 days ago with the BFF's own secret: validly signed, long expired.
    const past = Date.now() - 400 * 24 * 60 * 60 * 1000;
    const old = createManageTokens({ secret: stack.sessionSecret, store: stack.bff.store, now: () => past });
    const link = old.mint({
      widgetId: 'shop',
      environment: 'test',
      esimId: bought.esimId,
      serviceEndsAtMs: null,
    });
    await expectInvalid(link.manageToken, 'expired');
  });

  it('refuses a token of another widget', async () => {
    const link = await partner(`/v1/partner/esims/${bought.esimId}/manage-links`, {
      method: 'POST',
      body: { widgetId: 'shop-pay' },
    });
    expect(link.status).toBe(201);
    await expectInvalid(link.body.data.manageToken, 'manage_token_widget');
  });

  it('the partner revokes a token: it stops working at once, other tokens keep working', async () => {
    const minted = await partner(`/v1/partner/esims/${bought.esimId}/manage-links`, {
      method: 'POST',
      body: { widgetId: 'shop' },
    });
    const link = ManageLinkResponseSchema.parse(minted.body).data;
    expect((await myEsim(page, link.manageToken)).status).toBe(200);
    const revoked = await partner(`/v1/partner/manage-links/${link.id}/revoke`, { method: 'POST', body: {} });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.id).toBe(link.id);
    await expectInvalid(link.manageToken, 'revoked');
    expect((await myEsim(page, bought.manageToken)).status).toBe(200);
    // Tokens are secrets: never in the logs (the minting is logged by id).
    expect(stack.logs.join('\n')).not.toContain(link.manageToken);
    expect(stack.logs.some((line) => line.includes('manage link minted') && line.includes(link.id))).toBe(
      true,
    );
  });

  it('expires with the plan: the token lives until the service end once the eSIM is active', async () => {
    const esim = await buyEsim(await openWidget(stack.server.url, 'shop'));
    await stack.sandbox.control.setEsim(esim.esimId, { activate: true });
    const view = EsimViewResponseSchema.parse((await myEsim(page, esim.manageToken)).body).data;
    const minted = await partner(`/v1/partner/esims/${esim.esimId}/manage-links`, {
      method: 'POST',
      body: { widgetId: 'shop' },
    });
    const expiresAt = Date.parse(minted.body.data.expiresAt);
    const serviceEnd = Date.parse(view.activation.serviceExpiresAt ?? '');
    expect(Math.abs(expiresAt - serviceEnd)).toBeLessThan(1_000);
  });
});

describe('partner after-sale API', () => {
  it('needs the partner secret: a browser session cannot call it', async () => {
    const answer = await call(stack.server.url, `/v1/partner/esims/${bought.esimId}/action-requests`, {
      method: 'POST',
      headers: { Origin: SHOP_ORIGIN, Authorization: `Bearer ${page.token}`, 'Idempotency-Key': newKey() },
      body: { reasonCode: 'unused_profile' },
    });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('unauthorized');
  });

  it('refuses unknown eSIMs and widgets with the error envelope', async () => {
    const unknown = await partner('/v1/partner/esims/esim_nope/manage-links', {
      method: 'POST',
      body: { widgetId: 'shop' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('esim_not_found');
    const widget = await partner(`/v1/partner/esims/${bought.esimId}/manage-links`, {
      method: 'POST',
      body: { widgetId: 'nope' },
    });
    expect(widget.status).toBe(404);
    expect(widget.body.error.code).toBe('storefront_app_not_found');
    const view = await partner(`/v1/partner/esims/${bought.esimId}`);
    expect(view.status).toBe(200);
    expect(EsimViewResponseSchema.parse(view.body).data.esimId).toBe(bought.esimId);
  });

  it('creates a help request where the actions allow it and follows its status', async () => {
    const esim = await buyEsim(await openWidget(stack.server.url, 'shop'));
    const key = newKey();
    const create = () =>
      partner(`/v1/partner/esims/${esim.esimId}/action-requests`, {
        method: 'POST',
        headers: { 'Idempotency-Key': key },
        body: { reasonCode: 'unused_profile', reasonDetail: 'Trip cancelled' },
      });
    const created = await create();
    expect(created.status).toBe(201);
    const request = PartnerActionRequestResponseSchema.parse(created.body).data;
    expect(request).toMatchObject({
      esimId: esim.esimId,
      type: 'cancellation',
      reason: { code: 'unused_profile', detail: 'Trip cancelled' },
    });
    // A retried create (same key) is the same request.
    expect((await create()).body.data.id).toBe(request.id);
    const done = await eventually(async () => {
      const read = await partner(`/v1/partner/action-requests/${request.id}`);
      expect(read.status).toBe(200);
      const current = PartnerActionRequestResponseSchema.parse(read.body).data;
      return current.status === 'completed' ? current : undefined;
    });
    expect(done.completedAt).not.toBeNull();
    const missing = await partner('/v1/partner/action-requests/areq_nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('action_request_not_found');
  });

  it('refuses a request the eSIM’s actions do not allow, and a detail over 1000 characters', async () => {
    const esim = await buyEsim(await openWidget(stack.server.url, 'shop'));
    await stack.sandbox.control.setEsim(esim.esimId, { activate: true, usedMb: 10 });
    const inUse = await partner(`/v1/partner/esims/${esim.esimId}/action-requests`, {
      method: 'POST',
      headers: { 'Idempotency-Key': newKey() },
      body: { reasonCode: 'unused_profile' },
    });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toMatchObject({
      code: 'action_not_available',
      params: { action: 'cancellation' },
    });
    const tooLong = await partner(`/v1/partner/esims/${esim.esimId}/action-requests`, {
      method: 'POST',
      headers: { 'Idempotency-Key': newKey() },
      body: { reasonCode: 'service_defective', reasonDetail: 'x'.repeat(1001) },
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.error.code).toBe('validation_failed');
    const badReason = await partner(`/v1/partner/esims/${esim.esimId}/action-requests`, {
      method: 'POST',
      headers: { 'Idempotency-Key': newKey() },
      body: { reasonCode: 'because' },
    });
    expect(badReason.status).toBe(422);
  });
});

describe('bad input to the after-sale routes', () => {
  it('answers the error envelope with a 4xx, never a 5xx', async () => {
    const id = bought.esimId;
    const long = 'x'.repeat(300);
    const partnerCalls: [string, string, unknown, Record<string, string>?][] = [
      ['POST', `/v1/partner/esims/${id}/manage-links`, {}],
      ['POST', `/v1/partner/esims/${id}/manage-links`, { widgetId: 'UPPER' }],
      ['POST', `/v1/partner/esims/${id}/manage-links`, { widgetId: 'shop', extra: 1 }],
      ['POST', `/v1/partner/esims/${long}/manage-links`, { widgetId: 'shop' }],
      ['POST', '/v1/partner/esims/%00/manage-links', { widgetId: 'shop' }],
      ['POST', '/v1/partner/manage-links/nope/revoke', {}],
      ['POST', '/v1/partner/manage-links/mlk_aaaaaaaaaaaaaaaaaaaaaa/revoke', { nope: true }],
      ['GET', `/v1/partner/esims/${long}`, undefined],
      ['POST', `/v1/partner/esims/${id}/action-requests`, { reasonCode: 'other' }],
      ['POST', `/v1/partner/esims/${id}/action-requests`, [], { 'Idempotency-Key': newKey() }],
      ['POST', `/v1/partner/esims/${id}/action-requests`, 'text', { 'Idempotency-Key': newKey() }],
      [
        'POST',
        `/v1/partner/esims/${id}/action-requests`,
        { reasonCode: 'other', reasonDetail: 7 },
        { 'Idempotency-Key': newKey() },
      ],
      ['GET', `/v1/partner/action-requests/${long}`, undefined],
      ['GET', '/v1/partner/action-requests/..%2F..%2Forders', undefined],
    ];
    for (const [method, path, body, headers] of partnerCalls) {
      const answer = await partner(path, { method, body, headers });
      expect(answer.status, `${method} ${path} ${answer.text}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${method} ${path} ${answer.text}`).toBeLessThan(500);
      expect(answer.body.error.code, `${method} ${path}`).toMatch(/^[a-z_]+$/);
    }
    const tokens = [
      '',
      'a.b.c',
      `${long}.${long}.${long}`,
      'x'.repeat(5000),
      bought.manageToken.replace(/\./g, ''),
    ];
    for (const token of tokens) {
      for (const path of ['/v1/my-esim', '/v1/my-esim/installation']) {
        const answer = await page.get(path, { 'X-Manage-Token': token });
        expect(answer.status, `${path} ${token.slice(0, 20)}`).toBe(401);
        expect(answer.body.error.code).toBe('widget_session_invalid');
      }
    }
    const quote = await page.post(
      '/v1/quotes',
      { offerId: 'off_x', esimId: long },
      { 'Idempotency-Key': newKey(), 'X-Manage-Token': bought.manageToken },
    );
    expect(quote.status).toBe(422);
    const link = await page.post(
      '/v1/checkouts/chk_nope_nope_nope/manage-link',
      {},
      { 'X-Checkout-Secret': 'x' },
    );
    expect(link.status).toBe(404);
    expect(stack.logs.filter((line) => JSON.parse(line).status >= 500)).toEqual([]);
  });
});
