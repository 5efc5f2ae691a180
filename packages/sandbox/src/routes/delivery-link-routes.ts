/**
 * @module
 * Delivery links: `POST /orders/{id}/delivery-links` (the secret `url` is answered on creation and on an
 * identical replay only), `POST /delivery-links/{id}/revoke`, and the hosted page `GET /d/{token}` the
 * link opens, which counts views and stops at `maxViews`, expiry or revocation.
 */
import { DeliveryLinkCreateRequestSchema } from '@esim-embed/shared';
import { Hono } from 'hono';
import { html } from 'hono/html';
import { isoTime } from '../clock';
import { requireScope } from '../http/api-key-auth';
import { linkBase, responseMeta, sendResource } from '../http/envelope';
import { idempotentCreate } from '../http/idempotent-create';
import { readJsonBody, validate } from '../http/request-body';
import { deliveryLinkView } from '../http/resource-views';
import type { SandboxEnv } from '../http/sandbox-env';
import { SandboxError } from '../http/sandbox-error';
import type { DeliveryLinkRecord, EnvironmentState } from '../state/environment-state';
import { advanceEnvironment } from '../state/order-lifecycle';
import type { SandboxState } from '../state/sandbox-state';

/** The delivery-link API routes (authenticated). */
export function deliveryLinkRoutes(state: SandboxState) {
  const routes = new Hono<SandboxEnv>();

  routes.post('/orders/:id/delivery-links', async function postDeliveryLink(c) {
    const auth = requireScope(c, 'delivery_links:write');
    const order = auth.env.orders.get(c.req.param('id'));
    if (!order || order.accountId !== auth.account.seed.id) {
      throw new SandboxError('order_not_found', { params: { orderId: c.req.param('id') } });
    }
    const body = await readJsonBody(c);
    const nowMs = state.now();
    // The answer carries the secret url, on a replay too: never cached.
    c.header('Cache-Control', 'no-store');
    return idempotentCreate(c, nowMs, body, () => {
      const request = validate(DeliveryLinkCreateRequestSchema, body, 'body');
      if (
        order.kind !== 'issue' ||
        !order.esimId ||
        (order.status !== 'delivered' && order.status !== 'completed')
      ) {
        throw new SandboxError('invalid_transition', {
          params: { orderId: order.id, status: order.status, reason: 'esim_not_issued' },
        });
      }
      const link: DeliveryLinkRecord = {
        id: auth.env.ids.next('dlk'),
        accountId: auth.account.seed.id,
        orderId: order.id,
        token: auth.env.ids.chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 40),
        maxViews: request.maxViews,
        viewCount: 0,
        expiresAtMs: nowMs + request.expiresInMinutes * 60_000,
        lastViewedAtMs: null,
        revokedAtMs: null,
        createdAtMs: nowMs,
      };
      auth.env.deliveryLinks.set(link.id, link);
      auth.env.deliveryLinksByToken.set(link.token, link);
      return {
        status: 201,
        body: { data: deliveryLinkView(auth.env, link, linkBase(c, state.options)), meta: responseMeta(c) },
      };
    });
  });

  routes.post('/delivery-links/:id/revoke', function revokeDeliveryLink(c) {
    const auth = requireScope(c, 'delivery_links:write');
    const link = auth.env.deliveryLinks.get(c.req.param('id'));
    if (!link || link.accountId !== auth.account.seed.id) {
      throw new SandboxError('delivery_link_invalid', { params: { deliveryLinkId: c.req.param('id') } });
    }
    // Revoking twice answers the first revocation.
    link.revokedAtMs ??= state.now();
    return sendResource(c, { id: link.id, status: 'revoked' as const, revokedAt: isoTime(link.revokedAtMs) });
  });

  return routes;
}

function findLink(
  state: SandboxState,
  token: string,
): { env: EnvironmentState; link: DeliveryLinkRecord } | null {
  for (const env of Object.values(state.environments)) {
    const link = env.deliveryLinksByToken.get(token);
    if (link) return { env, link };
  }
  return null;
}

/** The hosted delivery page a link's `url` opens (public, HTML). */
export function deliveryPageRoutes(state: SandboxState) {
  const routes = new Hono<SandboxEnv>();

  routes.get('/d/:token', function showDeliveryPage(c) {
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    const found = findLink(state, c.req.param('token'));
    const nowMs = state.now();
    const gone = (reason: string) =>
      c.html(
        html`<!doctype html><title>Link unavailable</title><h1>This link is no longer available</h1><p>${reason}</p>`,
        410,
      );
    if (!found) return c.html(html`<!doctype html><title>Not found</title><h1>Unknown link</h1>`, 404);
    const { env, link } = found;
    advanceEnvironment(state, env, nowMs);
    if (link.revokedAtMs !== null) return gone('It was revoked.');
    if (nowMs >= link.expiresAtMs) return gone('It has expired.');
    if (link.viewCount >= link.maxViews) return gone('It was already opened the allowed number of times.');
    const order = env.orders.get(link.orderId);
    const esim = order?.esimId ? env.esims.get(order.esimId) : undefined;
    if (!order || !esim || esim.state === 'revoked') return gone('The eSIM is not available.');
    link.viewCount += 1;
    link.lastViewedAtMs = nowMs;
    const install = esim.installation;
    return c.html(html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Install your eSIM</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem">
<h1>Install your eSIM</h1>
<p>${order.product.title}</p>
<p><a href="${install.ios}">Install on iPhone</a> · <a href="${install.android}">Install on Android</a></p>
<h2>Manual installation</h2>
<dl><dt>SM-DP+ address</dt><dd><code>${install.smdpAddress}</code></dd>
<dt>Activation code</dt><dd><code>${install.activationCode}</code></dd>
<dt>LPA</dt><dd><code>${install.lpa}</code></dd></dl>
<p><small>Sandbox page: view ${link.viewCount} of ${link.maxViews}.</small></p>
</body></html>`);
  });

  return routes;
}
