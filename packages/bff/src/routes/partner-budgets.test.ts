/**
 * The partner API's budgets, over HTTP against the real sandbox, every call from one address (no proxy is
 * trusted: a shared NAT, or every caller behind a proxy the config does not count): wrong partner secrets are
 * refused within their own budget and never lock the right secret out.
 */
import { randomBytes } from 'node:crypto';
import { PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, PARTNER_SECRET, type Stack, startStack } from '../../testing/stack';
import { createMemoryStore } from '../store/memory-store';

const store = createMemoryStore();
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ store });
});
afterAll(async () => {
  await stack?.close();
});

/** The partner's account read with `secret`. */
const readAccount = (secret: string) =>
  call(stack.server.url, '/v1/partner/account?widgetId=shop', {
    headers: { [PARTNER_SECRET_HEADER]: secret },
  });

describe('wrong partner secrets', () => {
  it('never lock the right secret out: each wrong one spends a budget of its own', async () => {
    const wrong = `wrong-secret-${randomBytes(16).toString('hex')}`;
    const answers = [];
    for (let index = 0; index < 24; index += 1) answers.push(await readAccount(wrong));
    expect(answers.map((answer) => answer.status)).toEqual([...Array(20).fill(401), ...Array(4).fill(429)]);
    const refused = answers.at(-1);
    expect(refused?.body.error.code).toBe('rate_limited');
    expect(Number(refused?.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused?.headers.get('Retry-After'))).toBeLessThanOrEqual(60);

    // From the very same address, within the same minute: the right secret is answered.
    const right = await readAccount(PARTNER_SECRET);
    expect(right.status).toBe(200);
    // Another wrong secret is told it is wrong, not that the address is spent.
    expect((await readAccount(`${wrong}-other`)).status).toBe(401);

    // The budget is kept under a keyed digest of the secret, never the secret itself.
    const keys = [...(await store.contents()).keys()];
    expect(keys.filter((key) => key.includes('partner-secret-failures'))).toHaveLength(2);
    expect(keys.filter((key) => key.includes(wrong))).toEqual([]);
  });
});
