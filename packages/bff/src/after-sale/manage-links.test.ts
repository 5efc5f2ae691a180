/**
 * Manage links and the partner's after-sale API over HTTP against the real sandbox: one link per eSIM however
 * often the install step asks (reloads), a short opaque token kept in the store only as its hash; tampered,
 * unknown, expired, revoked and foreign tokens refused; revocation of one link only by the partner of its
 * widget, of every link of an eSIM at once; links of the release before (signed) open until they expire. The
 * partner reads the eSIM and creates and follows help requests only where the eSIM's actions allow them —
 * never from a browser.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  EsimViewResponseSchema,
  ManageLinkResponseSchema,
  PARTNER_SECRET_HEADER,
  PartnerActionRequestResponseSchema,
  RevokedManageLinksResponseSchema,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BoughtEsim, buyEsim, myEsim } from '../../testing/after-sale-flow';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  testConfig,
  type WidgetPage,
} from '../../testing/stack';
import { createCompactJwt } from '../security/session-token';
import { legacyManageKey } from './legacy-manage-token';
import { createManageTokens } from './manage-token';

/** Another partner's secret: widget `rival` on another upstream account, `rival-shared` on the shop's own. */
const RIVAL_SECRET = `rival-secret-${randomBytes(16).toString('hex')}`;

let stack: Stack;
let page: WidgetPage;
let bought: BoughtEsim;
beforeAll(async () => {
  stack = await startStack({
    env: { RIVAL_PARTNER_SECRET: RIVAL_SECRET },
    config: (url) => {
      const config = testConfig(url);
      const [shop, rub] = ['shop', 'shop-rub'].map((id) => config.widgets.find((widget) => widget.id === id));
      const rival = { ...rub, id: 'rival', partnerSecretEnv: 'RIVAL_PARTNER_SECRET' };
      const shared = {
        ...shop,
        id: 'rival-shared',
        allowedOrigins: ['https://rival.example'],
        partnerSecretEnv: 'RIVAL_PARTNER_SECRET',
      };
      return { ...config, widgets: [...config.widgets, rival, shared] } as typeof config;
    },
  });
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

/** The install step of a checkout after a reload: a new session of the widget asks for the manage link. */
const installStepLink = async (esim: BoughtEsim) => {
  const reloaded = await openWidget(stack.server.url, 'shop');
  const answer = await reloaded.post(
    `/v1/checkouts/${esim.checkoutId}/manage-link`,
    {},
    { 'X-Checkout-Secret': esim.clientSecret },
  );
  expect(answer.status, answer.text).toBe(201);
  return ManageLinkResponseSchema.parse(answer.body).data;
};

/** A token as the release before signed it (a JWT under the key it derived from the same root secret). */
const legacyToken = (
  esimId: string,
  widgetId = 'shop',
  iatMs = Date.now(),
  root: Uint8Array = stack.sessionSecret,
) =>
  createCompactJwt(legacyManageKey(root)).sign({
    typ: 'manage',
    mid: `mlk_${randomBytes(18).toString('base64url')}`,
    wid: widgetId,
    env: 'test',
    esim: esimId,
    iat: Math.floor(iatMs / 1000),
    exp: Math.floor(iatMs / 1000) + 86_400,
  });

describe('manage links', () => {
  it('a manage link from a ready checkout opens the eSIM, from any later session of the widget', async () => {
    expect(bought.manageToken).toMatch(/^[a-z2-7]{26}$/);
    const later = await openWidget(stack.server.url, 'shop', 'https://app.shop.example');
    const view = await myEsim(later, bought.manageToken);
    expect(view.status).toBe(200);
    expect(EsimViewResponseSchema.parse(view.body).data.esimId).toBe(bought.esimId);
  });

  it('three reloads of the install step give one manage link, and the partner gets the same one', async () => {
    const links = [
      await installStepLink(bought),
      await installStepLink(bought),
      await installStepLink(bought),
    ];
    for (const link of links) {
      expect(link.manageToken).toBe(bought.manageToken);
      expect(link.id).toBe(bought.manageLinkId);
    }
    const minted = await partner(`/v1/partner/esims/${bought.esimId}/manage-links`, {
      method: 'POST',
      body: { widgetId: 'shop' },
    });
    expect(minted.body.data.manageToken).toBe(bought.manageToken);
  });

  it('stores the token only as its hash, and the link fits an SMS on a typical partner page', async () => {
    const hash = createHash('sha256').update(bought.manageToken).digest('base64url');
    expect(bought.manageLinkId).toBe(`mlk_${hash}`);
    expect(await stack.bff.store.get(`manage-link:${hash}`)).not.toBeNull();
    const record = (await stack.bff.store.get(`manage-link:${hash}`))?.value ?? '';
    expect(record).not.toContain(bought.manageToken);
    const current = (await stack.bff.store.get(`manage-link-current:shop:${bought.esimId}`))?.value ?? '';
    expect(current).not.toContain(bought.manageToken);
    const url = `https://travel.example.com/esim#esim=shop.${bought.manageToken}`;
    expect(url.length).toBeLessThanOrEqual(80);
  });

  it('refuses a changed, unknown or malformed token, a session token, and a missing one', async () => {
    const last = bought.manageToken.at(-1) === 'a' ? 'b' : 'a';
    await expectInvalid(`${bought.manageToken.slice(0, -1)}${last}`, 'unknown');
    await expectInvalid(bought.manageToken.toUpperCase(), 'malformed');
    await expectInvalid('not-a-token', 'malformed');
    // Signed with another key, and of another shape.
    await expectInvalid(page.token, 'signature');
    const missing = await page.get('/v1/my-esim');
    expect(missing.status).toBe(401);
    expect(missing.body.error.params.reason).toBe('manage_token_missing');
  });

  it('refuses a token of another widget', async () => {
    const link = await partner(`/v1/partner/esims/${bought.esimId}/manage-links`, {
      method: 'POST',
      body: { widgetId: 'shop-pay' },
    });
    expect(link.status).toBe(201);
    expect(link.body.data.manageToken).not.toBe(bought.manageToken);
    await expectInvalid(link.body.data.manageToken, 'manage_token_widget');
  });

  it('the partner revokes a link: it stops working at once, other links keep working; a reload mints anew', async () => {
    const esim = await buyEsim(await openWidget(stack.server.url, 'shop'));
    const other = await partner(`/v1/partner/esims/${esim.esimId}/manage-links`, {
      method: 'POST',
      body: { widgetId: 'shop-pay' },
    });
    const revoked = await partner(`/v1/partner/manage-links/${esim.manageLinkId}/revoke`, {
      method: 'POST',
      body: {},
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.id).toBe(esim.manageLinkId);
    await expectInvalid(esim.manageToken, 'revoked');
    expect((await myEsim(page, bought.manageToken)).status).toBe(200);
    const payPage = await openWidget(stack.server.url, 'shop-pay');
    expect((await myEsim(payPage, other.body.data.manageToken)).status).toBe(200);
    // The install step, reloaded, gives a new link that works.
    const fresh = await installStepLink(esim);
    expect(fresh.manageToken).not.toBe(esim.manageToken);
    expect((await myEsim(page, fresh.manageToken)).status).toBe(200);
    // Tokens are secrets: never in the logs (links are logged by id).
    expect(stack.logs.join('\n')).not.toContain(esim.manageToken);
    expect(
      stack.logs.some((line) => line.includes('manage link given') && line.includes(esim.manageLinkId)),
    ).toBe(true);
  });

  it('revoke-all refuses every token of the eSIM (install step, partner, other widget, signed), not others', async () => {
    const esim = await buyEsim(await openWidget(stack.server.url, 'shop'));
    const payLink = await partner(`/v1/partner/esims/${esim.esimId}/manage-links`, {
      method: 'POST',
      body: { widgetId: 'shop-pay' },
    });
    const signed = legacyToken(esim.esimId, 'shop', Date.now() - 5_000);
    expect((await myEsim(page, signed)).status).toBe(200);
    const answer = await partner(`/v1/partner/esims/${esim.esimId}/manage-links/revoke-all`, {
      method: 'POST',
      body: {},
    });
    expect(answer.status, answer.text).toBe(200);
    expect(RevokedManageLinksResponseSchema.parse(answer.body).data.esimId).toBe(esim.esimId);
    await expectInvalid(esim.manageToken, 'revoked');
    await expectInvalid(signed, 'revoked');
    const payPage = await openWidget(stack.server.url, 'shop-pay');
    const refused = await myEsim(payPage, payLink.body.data.manageToken);
    expect(refused.body.error.params.reason).toBe('revoked');
    expect((await myEsim(page, bought.manageToken)).status).toBe(200);
  });

  it('after revoke-all the checkout’s client secret still reads the checkout but mints no manage link', async () => {
    const esim = await buyEsim(await openWidget(stack.server.url, 'shop'));
    const revoked = await partner(`/v1/partner/esims/${esim.esimId}/manage-links/revoke-all`, {
      method: 'POST',
      body: {},
    });
    expect(revoked.status, revoked.text).toBe(200);
    const reloaded = await openWidget(stack.server.url, 'shop');
    const secret = { 'X-Checkout-Secret': esim.clientSecret };
    const mintRefused = async () => {
      const answer = await reloaded.post(`/v1/checkouts/${esim.checkoutId}/manage-link`, {}, secret);
      expect(answer.status, answer.text).toBe(403);
      expect(answer.body.error).toMatchObject({
        code: 'forbidden',
        params: { reason: 'manage_links_revoked' },
      });
    };
    await mintRefused();
    const read = await reloaded.get(`/v1/checkouts/${esim.checkoutId}`, secret);
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.status).toBe('ready');
    // The partner's server makes a new link for the traveller: that one opens, the old secret still reaches none.
    const fresh = await partner(`/v1/partner/esims/${esim.esimId}/manage-links`, {
      method: 'POST',
      body: { widgetId: 'shop' },
    });
    expect(fresh.status, fresh.text).toBe(201);
    expect(fresh.body.data.manageToken).not.toBe(esim.manageToken);
    expect((await myEsim(page, fresh.body.data.manageToken)).status).toBe(200);
    await mintRefused();
  });

  it('a partner cannot revoke another widget’s link, nor every link of an eSIM it did not sell (even on a shared upstream key)', async () => {
    const rival = { [PARTNER_SECRET_HEADER]: RIVAL_SECRET };
    const one = await partner(`/v1/partner/manage-links/${bought.manageLinkId}/revoke`, {
      method: 'POST',
      body: {},
      headers: rival,
    });
    expect(one.status).toBe(404);
    expect(one.body.error.code).toBe('not_found');
    const all = await partner(`/v1/partner/esims/${bought.esimId}/manage-links/revoke-all`, {
      method: 'POST',
      body: {},
      headers: rival,
    });
    expect(all.status).toBe(404);
    expect(all.body.error.code).toBe('esim_not_found');
    expect((await myEsim(page, bought.manageToken)).status).toBe(200);
  });

  it('a link of the release before (signed) opens its eSIM until it expires; tampered ones are refused', async () => {
    const signed = legacyToken(bought.esimId);
    expect((await myEsim(page, signed)).status).toBe(200);
    const [header, payload, signature] = signed.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const otherPayload = Buffer.from(JSON.stringify({ ...claims, esim: 'esim_someone_else' })).toString(
      'base64url',
    );
    await expectInvalid(`${header}.${otherPayload}.${signature}`, 'signature');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    await expectInvalid(`${none}.${payload}.${signature}`, 'algorithm');
    await expectInvalid(legacyToken(bought.esimId, 'shop', Date.now() - 2 * 86_400_000), 'expired');
    // A signed link's id cannot be revoked alone (nothing says whose it is): revoke-all covers it.
    const revoke = await partner(`/v1/partner/manage-links/${claims.mid}/revoke`, {
      method: 'POST',
      body: {},
    });
    expect(revoke.status).toBe(404);
  });

  it('keeps working across a rotation of the root secret; the same link while the old root is still listed', async () => {
    const store = stack.bff.store;
    const [oldRoot, newRoot] = [randomBytes(32), randomBytes(32)];
    const subject = {
      widgetId: 'shop',
      environment: 'test',
      esimId: 'esim_rotated',
      checkoutId: null,
    } as const;
    const before = await createManageTokens({ secrets: [oldRoot], store }).mint({
      ...subject,
      serviceEndsAtMs: null,
    });
    const rotating = createManageTokens({ secrets: [newRoot, oldRoot], store });
    expect((await rotating.verify(before.manageToken)).esim).toBe('esim_rotated');
    expect((await rotating.mint({ ...subject, serviceEndsAtMs: null })).manageToken).toBe(before.manageToken);
    // A signed link of the release before, under the old root, opens while that root is listed.
    const signed = legacyToken('esim_rotated', 'shop', Date.now(), oldRoot);
    expect((await rotating.verify(signed)).esim).toBe('esim_rotated');
    // The old root gone: links already sent still open (a token is looked up, not verified with a key).
    const rotated = createManageTokens({ secrets: [newRoot], store });
    expect((await rotated.verify(before.manageToken)).esim).toBe('esim_rotated');
  });

  it('expires with the plan: the link lives until the service end once the eSIM is active', async () => {
    const esim = await buyEsim(await openWidget(stack.server.url, 'shop'));
    await stack.sandbox.control.setEsim(esim.esimId, { activate: true });
    const view = EsimViewResponseSchema.parse((await myEsim(page, esim.manageToken)).body).data;
    const minted = await partner(`/v1/partner/esims/${esim.esimId}/manage-links`, {
      method: 'POST',
      body: { widgetId: 'shop' },
    });
    expect(minted.body.data.manageToken).toBe(esim.manageToken);
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
      ['POST', '/v1/partner/manage-links/mlk_aaaaaaaaaaaaaaaaaaaaaa/revoke', {}],
      ['POST', `/v1/partner/esims/${id}/manage-links/revoke-all`, { nope: true }],
      ['POST', `/v1/partner/esims/${long}/manage-links/revoke-all`, {}],
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
      bought.manageToken.toUpperCase(),
      `${bought.manageToken}.`,
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
