import { AccountBalanceResponseSchema, AccountResponseSchema } from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../../testing/sandbox-harness';
import { SANDBOX_ACCOUNTS, SANDBOX_KEYS } from '../seed/accounts';

describe('account', () => {
  const { api, app } = createHarness();

  it('answers each seeded partner its own brand, currency, pricing and balance', async () => {
    const brands = new Set<string>();
    for (const [key, id, currency] of [
      [SANDBOX_KEYS.globetrotter, SANDBOX_ACCOUNTS.globetrotter, 'USD'],
      [SANDBOX_KEYS.aurora, SANDBOX_ACCOUNTS.aurora, 'RUB'],
      [SANDBOX_KEYS.lagoon, SANDBOX_ACCOUNTS.lagoon, 'USD'],
      [SANDBOX_KEYS.shoestring, SANDBOX_ACCOUNTS.shoestring, 'USD'],
    ] as const) {
      const account = (await api.as(key).get('/account', AccountResponseSchema)).data;
      expect(account).toMatchObject({ id, currency, status: 'active' });
      expect(account.balance.availableBalance).toEqual(account.balance.balance);
      brands.add(`${account.brand.displayName}:${account.brand.primaryColor}`);
      expect(account.brand.logoUrl?.startsWith('https://')).toBe(true);
      const logo = await app.request(new URL(account.brand.logoUrl ?? '').pathname);
      expect(logo.status).toBe(200);
      expect(logo.headers.get('Content-Type')).toBe('image/png');
      expect([...new Uint8Array(await logo.arrayBuffer()).slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    }
    expect(brands.size).toBe(4);
    const balance = await api
      .as(SANDBOX_KEYS.shoestring)
      .get('/account/balance', AccountBalanceResponseSchema);
    expect(balance.data.balance).toEqual({ amountMinor: 500, currency: 'USD' });
  });
});
