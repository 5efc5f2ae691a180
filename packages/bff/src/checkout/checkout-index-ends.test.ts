/**
 * A checkout and its list entries end together: the embedded store on a test clock holds a checkout written twice
 * (the second write half a day after the first, which does not index it again), and its rows in the lists' indexes;
 * one moment before the end both are there, one sweep after it neither is — under `retention.checkoutDays` as
 * configured (here 3 days) or by default.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RetentionSchema, retentionMs } from '../config/config-schema';
import { keyedDigest } from '../security/keyed-digest';
import { openSqliteStore } from '../store/sqlite-store';
import { STORE_KEYS } from '../store/store';
import { createCheckoutIndex, createCheckoutIndexNames } from './checkout-index';
import { createCheckoutRepository, readCheckoutRecord } from './checkout-record';

const DAY_MS = 24 * 60 * 60 * 1000;
const root = mkdtempSync(join(tmpdir(), 'esim-index-ends-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A checkout with an e-mail address, as the release writes one. */
const template = readCheckoutRecord(
  readFileSync(
    new URL('../store/record-fixtures/checkout.ready-installation-email-sent.json', import.meta.url),
    'utf8',
  ),
);

describe.each([
  {
    retention: retentionMs({ ...RetentionSchema.parse({}), checkoutDays: 3 }),
  },
  { retention: undefined },
])('a checkout and its list entries', ({ retention }) => {
  it(`end within one sweep of each other (retention ${retention === undefined ? 'by default' : '3 days'})`, async () => {
    let time = Date.parse('2026-11-01T00:00:00Z');
    const now = () => time;
    const dataDir = join(root, retention === undefined ? 'default' : 'short');
    const store = openSqliteStore({ dataDir, now, sweepIntervalMs: 3_600_000 });
    try {
      const names = createCheckoutIndexNames(keyedDigest([randomBytes(32)], 'index-name'));
      const index = createCheckoutIndex(store, { names, retention, now });
      const repository = createCheckoutRepository(store, undefined, index);
      const created = new Date(time).toISOString();
      const record = { ...template, createdAt: created, updatedAt: created, indexedAt: undefined };
      expect(await repository.insertCheckout(record)).toBe(true);
      time += DAY_MS / 2;
      const stored = await repository.getCheckout(record.id);
      if (stored === null) throw new Error('not stored');
      // A change that moves it out of no list: not indexed again, its life runs from the indexing before.
      expect(await repository.updateCheckout(stored, { ...stored.record, locale: 'de' })).not.toBeNull();
      const rows = () => ({
        record: Number(
          store.database
            .prepare('SELECT COUNT(*) AS n FROM entries WHERE key = ?')
            .get(STORE_KEYS.checkout(record.id))?.n,
        ),
        entries: Number(
          store.database.prepare('SELECT COUNT(*) AS n FROM index_entries WHERE member = ?').get(record.id)
            ?.n,
        ),
      });
      expect(rows().entries).toBe(names.of(record).length);
      const end = Date.parse(created) + (retention ?? retentionMs()).checkoutMs + DAY_MS;
      time = end - 1;
      await store.sweep();
      expect(rows()).toEqual({ record: 1, entries: names.of(record).length });
      time = end;
      await store.sweep();
      expect(rows()).toEqual({ record: 0, entries: 0 });
    } finally {
      await store.close();
    }
  });
});
