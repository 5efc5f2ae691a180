/**
 * The reservation ledger's firm and unpaid holds (memory store, a clock of the test's own): the sums tell them
 * apart and count an address's and a session's unpaid holds; an unpaid hold is never renewed, stops counting when
 * its time is up, and becomes firm only through a new approval.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory-store';
import { STORE_KEYS } from '../store/store';
import { createReservationLedger, type HeldFunds, type HoldRequest } from './reservation-ledger';

const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' as const });
const alice = { address: 'addr-a', session: 'sess-1' };

function ledgerAt(start: number) {
  const clock = { now: start };
  const store = createMemoryStore();
  const ledger = createReservationLedger(store, 'acct', () => clock.now);
  const seen: HeldFunds[] = [];
  const hold = (id: string, request: HoldRequest) =>
    ledger.hold(id, request, (others) => void seen.push(others), 0);
  return { clock, store, ledger, seen, hold };
}

describe('unpaid and firm holds', () => {
  it('counts them apart, and an address and a session across their checkouts', async () => {
    const { clock, ledger, seen, hold } = ledgerAt(1_000_000);
    const until = clock.now + 60_000;
    await hold('chk_firm', { amount: usd(1_000), holdUntilMs: until, unpaidBy: null });
    await hold('chk_a1', { amount: usd(300), holdUntilMs: until, unpaidBy: alice });
    await hold('chk_a2', {
      amount: usd(300),
      holdUntilMs: until + 5_000,
      unpaidBy: { ...alice, session: 's2' },
    });
    await hold('chk_b1', {
      amount: usd(300),
      holdUntilMs: until,
      unpaidBy: { address: 'addr-b', session: 's3' },
    });
    // What the fourth hold was approved against: Alice's two holds, one of them in her session.
    expect(seen.at(-1)).toMatchObject({ firmMinor: 1_000, unpaidMinor: 600, unpaidCount: 2 });
    await hold('chk_a3', { amount: usd(300), holdUntilMs: until, unpaidBy: alice });
    expect(seen.at(-1)).toMatchObject({
      amountMinor: 1_900,
      count: 4,
      firmMinor: 1_000,
      unpaidMinor: 900,
      unpaidCount: 3,
      ofAddress: { count: 2, firstEndsAtMs: until },
      ofSession: { count: 1, firstEndsAtMs: until },
    });
    expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 1_000, unpaidMinor: 1_200, count: 5 });
  });

  it('never renews an unpaid hold, and forgets it when its time is up', async () => {
    const { clock, ledger, store, hold } = ledgerAt(1_000_000);
    await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 10_000, unpaidBy: alice });
    // The same checkout again, later: the hold keeps its first end.
    await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 600_000, unpaidBy: alice });
    const stored = JSON.parse((await store.get(STORE_KEYS.fundingLedger('acct')))?.value ?? '{}');
    expect(stored.holds.chk_a.holdUntilMs).toBe(clock.now + 10_000);
    expect(stored.schemaVersion).toBe(2);
    clock.now += 10_000;
    expect(await ledger.held('USD', 0)).toMatchObject({ amountMinor: 0, unpaidCount: 0 });
    // Nor does an unpaid hold come back after it ended.
    await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 10_000, unpaidBy: alice });
    expect(await ledger.held('USD', 0)).toMatchObject({ amountMinor: 0 });
  });

  it('makes an unpaid hold firm only through a new approval, which sees the others without it', async () => {
    const { clock, ledger, seen, hold } = ledgerAt(1_000_000);
    await hold('chk_other', { amount: usd(500), holdUntilMs: clock.now + 60_000, unpaidBy: alice });
    await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 60_000, unpaidBy: alice });
    const refused = ledger.hold(
      'chk_a',
      { amount: usd(300), holdUntilMs: clock.now + 3_600_000, unpaidBy: null },
      () => {
        throw new Error('refused');
      },
      0,
    );
    await expect(refused).rejects.toThrow('refused');
    expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 0, unpaidMinor: 800 });
    await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 3_600_000, unpaidBy: null });
    expect(seen.at(-1)).toMatchObject({ unpaidMinor: 500, unpaidCount: 1, firmMinor: 0 });
    expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 300, unpaidMinor: 500 });
    // Firm now: it outlives the unpaid hold's end.
    clock.now += 120_000;
    expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 300, unpaidMinor: 0 });
  });

  it('makes a hold firm when its checkout is confirmed and placed (extend)', async () => {
    const { clock, ledger, hold } = ledgerAt(1_000_000);
    await hold('chk_a', { amount: usd(300), holdUntilMs: clock.now + 1_000, unpaidBy: alice });
    await ledger.extend('chk_a', clock.now + 3_600_000);
    clock.now += 60_000;
    expect(await ledger.held('USD', 0)).toMatchObject({ firmMinor: 300, unpaidCount: 0 });
  });
});
