import { CapabilitiesResponseSchema, OrderPageSchema, ProductPageSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, expectError, httpCaller, INSTANT_STEPS } from '../../testing/sandbox-harness';
import { type RunningSandbox, startSandbox } from '../start-sandbox';

describe('fault injection over a real listener', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ stepDelaysMs: INSTANT_STEPS, faultInjection: true });
  });
  afterAll(() => sandbox.close());
  beforeEach(async () => {
    await sandbox.control.reset();
  });

  it('answers an injected 5xx with the internal envelope and Retry-After, for the given number of times', async () => {
    const api = httpCaller(sandbox.url);
    await sandbox.control.setFaults([{ kind: 'error', path: '/catalog/*', status: 503, times: 2 }]);
    for (let i = 0; i < 2; i++) {
      const failure = await api.fail('GET', '/catalog/products?limit=1');
      expectError(failure, 'internal', 503);
      expect(failure.headers.get('Retry-After')).toBe('1');
    }
    await api.get('/catalog/products?limit=1', ProductPageSchema);
    expect((await sandbox.control.state()).faults).toEqual([]);
  });

  it('answers an injected 429 as rate_limited with the rule Retry-After', async () => {
    const api = httpCaller(sandbox.url);
    await sandbox.control.setFaults([
      { kind: 'error', method: 'POST', path: '/quotes', status: 429, retryAfterSeconds: 8, times: 1 },
    ]);
    const refused = await api.fail('POST', '/quotes', {
      body: { offerId: 'off_x' },
      idempotencyKey: 'k-429',
    });
    expectError(refused, 'rate_limited', 429);
    expect(refused.headers.get('Retry-After')).toBe('8');
    expect((await sandbox.control.state()).faults).toEqual([]);
  });

  it('drops the connection without touching state', async () => {
    const api = httpCaller(sandbox.url);
    await sandbox.control.setFaults([{ kind: 'drop', method: 'GET', path: '/capabilities', times: 1 }]);
    await expect(api.call('GET', '/capabilities')).rejects.toThrow();
    await api.get('/capabilities', CapabilitiesResponseSchema);
  });

  it('adds latency', async () => {
    const api = httpCaller(sandbox.url);
    // A latency far above what a loopback request takes on a busy machine, so that the two bounds never meet.
    await sandbox.control.setFaults([{ kind: 'latency', path: '/orders', latencyMs: 600 }]);
    const started = performance.now();
    await api.get('/orders', OrderPageSchema);
    expect(performance.now() - started).toBeGreaterThanOrEqual(590);
    await sandbox.control.clearFaults();
    const quick = performance.now();
    await api.get('/orders', OrderPageSchema);
    expect(performance.now() - quick).toBeLessThan(590);
  });

  it('never touches the control API', async () => {
    await sandbox.control.setFaults([{ kind: 'error' }]);
    expect((await sandbox.control.state()).faults).toHaveLength(1);
  });
});

describe('fault injection in process (no socket to drop)', () => {
  it('answers 503 for drops, after committing for drop_after_commit', async () => {
    const h = createHarness({ faultInjection: true });
    await h.control.setFaults([{ kind: 'drop', path: '/capabilities', times: 1 }]);
    const dropped = await h.api.fail('GET', '/capabilities');
    expectError(dropped, 'internal', 503);
    expect(dropped.error.params.reason).toBe('injected_drop');
    await h.control.setFaults([{ kind: 'drop_after_commit', method: 'POST', path: '/recipients', times: 1 }]);
    const committed = await h.api.fail('POST', '/recipients', {
      body: { externalRef: 'r1' },
      idempotencyKey: 'k',
    });
    expectError(committed, 'internal', 503);
    const replay = await h.api.call('POST', '/recipients', {
      body: { externalRef: 'r1' },
      idempotencyKey: 'k',
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
  });
});

describe('fault injection is off unless enabled', () => {
  const h = createHarness();
  it('refuses fault rules', async () => {
    await expect(h.control.setFaults([{ kind: 'error' }])).rejects.toThrow(/403 forbidden/);
    const refused = await h.app.request('/__sandbox/faults', {
      method: 'PUT',
      headers: { 'X-Sandbox-Control': 'wrong', 'Content-Type': 'application/json' },
      body: '{"rules":[]}',
    });
    expect(refused.status).toBe(401);
  });
});
