/**
 * A data directory written by the release before the partner lists (schema version 1, checkouts without index
 * entries) opens with this release: the migration adds the index table, the BFF indexes the stored checkouts at
 * its start, once, and the partner lists them — by status and e-mail too — over HTTP against the real sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { call, newKey, openWidget, PARTNER_SECRET, type Stack, startBff, startStack } from '../../testing';
import { openSqlite } from '../store/sqlite-engine';
import { DATABASE_FILE, openSqliteStore } from '../store/sqlite-store';
import { decodeValue } from '../store/sqlite-value-encoding';
import { STORE_KEYS } from '../store/store';

const root = mkdtempSync(join(tmpdir(), 'esim-old-schema-'));
let stack: Stack | undefined;
afterAll(async () => {
  await stack?.close();
  rmSync(root, { recursive: true, force: true });
});

/**
 * Turn the data directory back into what last month's release wrote: no index table (nor entry books), version
 * 1, no marks.
 */
function asLastMonthsRelease(dataDir: string): void {
  const db = openSqlite(join(dataDir, DATABASE_FILE));
  db.exec('DROP TABLE index_entries');
  // Nor the entry books of later releases (the funding holds of its checkouts are not what is looked at here).
  db.exec('DROP TABLE book_entries; DROP TABLE book_totals; DROP TABLE book_marks');
  db.prepare("DELETE FROM entries WHERE key LIKE ? || '%'").run(STORE_KEYS.indexBuilt('checkout'));
  // Its values were text (this release keeps records deflated).
  const rewrite = db.prepare('UPDATE entries SET value = ? WHERE key = ?');
  for (const row of db.prepare(`SELECT key, value FROM entries WHERE key LIKE 'checkout:%'`).all()) {
    const { indexedAt: _, ...record } = JSON.parse(decodeValue(row.value));
    rewrite.run(JSON.stringify(record), String(row.key));
  }
  db.exec('PRAGMA user_version = 1');
  db.close();
}

describe('a data directory of the release before the partner lists', () => {
  it('opens, and its checkouts are indexed once at start and listed', async () => {
    const dataDir = join(root, 'data');
    stack = await startStack({ store: openSqliteStore({ dataDir }) });
    const page = await openWidget(stack.server.url, 'shop-pay');
    const destinations = await page.get('/v1/destinations?locale=en');
    const country = destinations.body.data.find(
      (destination: { kind: string }) => destination.kind === 'country',
    );
    const plans = await page.get(`/v1/destinations/${country.code}/plans`);
    const made: string[] = [];
    for (const email of ['old-one@example.com', 'Old-Two@Example.com']) {
      const quote = await page.post(
        '/v1/quotes',
        { offerId: plans.body.data[0].offerId },
        { 'Idempotency-Key': newKey() },
      );
      const checkout = await page.post(
        '/v1/checkouts',
        { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true, email },
        { 'Idempotency-Key': newKey() },
      );
      expect(checkout.status, checkout.text).toBe(201);
      made.push(checkout.body.data.id);
    }
    await stack.server.close();
    asLastMonthsRelease(dataDir);

    const reopened = openSqliteStore({ dataDir });
    const bff = await startBff(stack.sandbox.url, { sessionSecret: stack.sessionSecret, store: reopened });
    try {
      expect((await bff.bff.indexesBuilt).checkout).toBe(2);
      const partner = { [PARTNER_SECRET_HEADER]: PARTNER_SECRET };
      const listed = await call(bff.server.url, '/v1/partner/checkouts', { headers: partner });
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.data.map((checkout: { id: string }) => checkout.id)).toEqual([...made].reverse());
      const byEmail = await call(bff.server.url, '/v1/partner/checkouts?email=old-two%40example.com', {
        headers: partner,
      });
      expect(byEmail.body.data.map((checkout: { id: string }) => checkout.id)).toEqual([made[1]]);
      const byStatus = await call(bff.server.url, '/v1/partner/checkouts?status=awaiting_payment', {
        headers: partner,
      });
      expect(byStatus.body.data).toHaveLength(2);
    } finally {
      await bff.server.close();
    }
    // Once: the next start finds the mark and reads no checkout.
    const again = await startBff(stack.sandbox.url, {
      sessionSecret: stack.sessionSecret,
      store: openSqliteStore({ dataDir }),
    });
    try {
      expect((await again.bff.indexesBuilt).checkout).toBe(0);
    } finally {
      await again.server.close();
    }
  });
});
