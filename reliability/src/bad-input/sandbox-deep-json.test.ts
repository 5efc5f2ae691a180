/**
 * Every create of the sandbox fingerprints its body for idempotency: a body nested thousands of levels deep
 * is refused with the contract's `validation_failed` envelope (422), never a stack overflow answered as 500;
 * an ordinary nested body still reaches the create's own validation.
 */
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { ErrorEnvelopeSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deeplyNested } from './hostile-input';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 50,
  });
});
afterAll(async () => {
  await sandbox?.close();
});

const post = (path: string, body: string) =>
  fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: {
      'X-Api-Key': SANDBOX_KEYS.globetrotter,
      'Content-Type': 'application/json',
      'Idempotency-Key': `deep-${Math.random().toString(36).slice(2)}`,
    },
    body,
  });

describe('deeply nested bodies on the sandbox’s creates', () => {
  it.each([
    '/quotes',
    '/orders',
    '/recipients',
    '/orders/ord_x/delivery-links',
    '/esims/esim_x/action-requests',
  ])('POST %s refuses 10,000 levels with validation_failed', async (path) => {
    for (const kind of ['array', 'object'] as const) {
      const response = await post(path, deeplyNested(10_000, kind));
      expect(response.status).toBeLessThan(500);
      expect(response.status).toBeGreaterThanOrEqual(400);
      ErrorEnvelopeSchema.parse(await response.json());
    }
  });

  it('still validates an ordinary nested body', async () => {
    const response = await post('/quotes', JSON.stringify({ offerId: { a: { b: { c: [1, [2, [3]]] } } } }));
    expect(response.status).toBe(422);
    const envelope = ErrorEnvelopeSchema.parse(await response.json());
    expect(envelope.error.code).toBe('validation_failed');
    expect(JSON.stringify(envelope.error.params)).not.toContain('too_deep');
  });
});
