/**
 * A webhook delivery and its list entries end together, `retention.webhookDeliveryDays` after its last change
 * (here 2 days): the embedded store on a test clock holds a delivery queued, then delivered a day later (a
 * change), then queued again (the same event: no change) — one moment before the end the record and its entries
 * are there, one sweep after it neither is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pendingDelivery } from '../../testing/webhook-receiver';
import { openSqliteStore } from '../store/sqlite-store';
import { STORE_KEYS } from '../store/store';
import { createWebhookQueue } from './webhook-queue';

const DAY_MS = 24 * 60 * 60 * 1000;
const root = mkdtempSync(join(tmpdir(), 'esim-delivery-retention-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a webhook delivery and its list entries', () => {
  it('end within one sweep of each other, its retention after its last change', async () => {
    let time = Date.parse('2026-11-01T00:00:00Z');
    const now = () => time;
    const store = openSqliteStore({ dataDir: join(root, 'data'), now, sweepIntervalMs: 3_600_000 });
    try {
      const queue = createWebhookQueue(store, 2 * DAY_MS, now);
      const delivery = pendingDelivery('evt_kept', 'shop', time, { checkoutId: 'chk_kept' });
      expect(await queue.enqueue(delivery)).toBe(true);
      time += DAY_MS;
      const queued = await queue.read(delivery.id);
      if (queued === null) throw new Error('not queued');
      const delivered = await queue.update(queued, {
        ...queued.delivery,
        state: 'delivered',
        attempts: 1,
        lastResult: '200',
        history: [{ atMs: time, result: '200' }],
      });
      expect(delivered?.delivery.state).toBe('delivered');
      const end = time + 2 * DAY_MS;
      time += DAY_MS / 2;
      // Queued again (a reaction done twice): nothing changes, and its entries do not outlive the record.
      expect(await queue.enqueue(delivery)).toBe(false);
      const rows = () => ({
        record: Number(
          store.database
            .prepare('SELECT COUNT(*) AS n FROM entries WHERE key = ?')
            .get(STORE_KEYS.webhookDelivery(delivery.id))?.n,
        ),
        entries: Number(
          store.database.prepare('SELECT COUNT(*) AS n FROM index_entries WHERE member = ?').get(delivery.id)
            ?.n,
        ),
      });
      // All, by state, by type, by checkout.
      expect(rows()).toEqual({ record: 1, entries: 4 });
      time = end - 1;
      await store.sweep();
      expect(rows()).toEqual({ record: 1, entries: 4 });
      time = end;
      await store.sweep();
      expect(rows()).toEqual({ record: 0, entries: 0 });
    } finally {
      await store.close();
    }
  });
});
