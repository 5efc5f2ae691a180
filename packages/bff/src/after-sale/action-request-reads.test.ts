/**
 * A help request read by another partner whose widget shares the seller's upstream key, over HTTP against the
 * real sandbox: refused (404) before anything is observed — the stored request stays the seller's, nothing is
 * queued for the other partner's webhooks, and the seller still reads it.
 */
import { randomBytes } from 'node:crypto';
import { PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buyEsim } from '../../testing/after-sale-flow';
import { createRecordingStore, snapshotChanges } from '../../testing/recording-store';
import {
  call,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testConfig,
} from '../../testing/stack';
import { STORE_KEYS } from '../store/store';

const RIVAL_SECRET = `rival-secret-${randomBytes(16).toString('hex')}`;
const store = createRecordingStore();
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    store,
    env: { RIVAL_PARTNER_SECRET: RIVAL_SECRET, HOOK_SECRET: `whsec_${randomBytes(16).toString('hex')}` },
    // No background watch: what the store holds changes only through requests.
    bffOptions: { startWorkers: false },
    config: (url) => {
      const config = testConfig(url);
      const shop = config.widgets.find((widget) => widget.id === 'shop');
      const rival = {
        ...shop,
        id: 'rival-shared',
        allowedOrigins: ['https://rival.example'],
        partnerSecretEnv: 'RIVAL_PARTNER_SECRET',
        webhookUrl: 'http://127.0.0.1:9/hooks',
        webhookSecretEnv: 'HOOK_SECRET',
      };
      return { ...config, widgets: [...config.widgets, rival] } as typeof config;
    },
  });
});
afterAll(async () => {
  await stack?.close();
});

const partner = (secret: string, path: string, init: { method?: string; body?: unknown } = {}) =>
  call(stack.server.url, path, {
    ...init,
    headers: { [PARTNER_SECRET_HEADER]: secret, 'Idempotency-Key': newKey() },
  });

it('another partner on the same upstream key reads nothing and changes nothing', async () => {
  const esim = await buyEsim(await openWidget(stack.server.url, 'shop'));
  const created = await partner(PARTNER_SECRET, `/v1/partner/esims/${esim.esimId}/action-requests`, {
    method: 'POST',
    body: { reasonCode: 'unused_profile' },
  });
  expect(created.status, created.text).toBe(201);
  const id: string = created.body.data.id;
  const kept = await stack.bff.store.get(STORE_KEYS.actionRequest(id));
  expect(JSON.parse(kept?.value ?? '{}').widgetId).toBe('shop');

  const before = await store.snapshot();
  const read = await partner(RIVAL_SECRET, `/v1/partner/action-requests/${id}`);
  expect(read.status).toBe(404);
  expect(read.body.error.code).toBe('action_request_not_found');
  expect(snapshotChanges(before, await store.snapshot())).toEqual([]);

  const own = await partner(PARTNER_SECRET, `/v1/partner/action-requests/${id}`);
  expect(own.status).toBe(200);
  expect(own.body.data.id).toBe(id);
});
