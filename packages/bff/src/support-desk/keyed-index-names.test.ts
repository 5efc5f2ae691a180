/**
 * A search by e-mail finds what earlier releases and earlier root secrets indexed. A data directory holds two
 * checkouts whose e-mail index last month's release named by the unkeyed SHA-256 of the address: this release's
 * search finds them before anything is rebuilt, and its first start moves them to names under its key (the unkeyed
 * names emptied). Then the root secret is rotated (the old one listed as previous): the search still finds them,
 * under the old key's names, and the start under the new root moves them again. Over HTTP against the real sandbox,
 * on the embedded store.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { call, openWidget, PARTNER_SECRET, type Stack, startBff, startStack } from '../../testing';
import { checkoutOnPage } from '../../testing/traveller-checkout';
import { type CheckoutIndexNames, createCheckoutIndexNames } from '../checkout/checkout-index';
import { createCheckoutRepository } from '../checkout/checkout-record';
import { createEsimOwners } from '../checkout/esim-owners';
import { keyedDigest } from '../security/keyed-digest';
import { openSqliteStore, type SqliteStore } from '../store/sqlite-store';
import { STORE_KEYS } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { createSupportDesk } from './support-desk';

const root = mkdtempSync(join(tmpdir(), 'esim-keyed-names-'));
const dataDir = join(root, 'data');
const WIDGET = 'shop-pay';
const EMAILS = ['ada.lovelace@example.com', 'Grace.Hopper@Example.org'];
let stack: Stack | undefined;
afterAll(async () => {
  await stack?.close();
  rmSync(root, { recursive: true, force: true });
});

const namesUnder = (...roots: Uint8Array[]) => createCheckoutIndexNames(keyedDigest(roots, 'index-name'));

/** The members of one index, as the store holds them. */
const membersOf = (store: SqliteStore, name: string) =>
  store.database
    .prepare('SELECT member FROM index_entries WHERE name = ? ORDER BY member')
    .all(name)
    .map((row) => String(row.member));

/** The checkouts a search by `email` finds, through the support desk alone (no index build has run). */
async function searched(store: SqliteStore, names: CheckoutIndexNames, email: string): Promise<string[]> {
  const repository = createCheckoutRepository(store);
  const desk = createSupportDesk({
    store,
    repository,
    esimOwners: createEsimOwners(store, repository),
    indexNames: names,
  });
  const widgets = new Map([[WIDGET, {} as WidgetRuntime]]);
  const page = await desk.listCheckouts(widgets, { email }, { after: null, limit: 10 });
  return page.items.map((checkout) => checkout.id).sort();
}

/** The same search over HTTP, as the partner's server makes it. */
async function searchedOverHttp(url: string, email: string): Promise<string[]> {
  const answer = await call(url, `/v1/partner/checkouts?email=${encodeURIComponent(email)}`, {
    headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data.map((checkout: { id: string }) => checkout.id).sort();
}

describe('a search by e-mail', () => {
  it('finds what the release before and a root rotated out indexed, and the start moves it to the new names', async () => {
    stack = await startStack({ store: openSqliteStore({ dataDir }) });
    const first = stack.sessionSecret;
    const page = await openWidget(stack.server.url, WIDGET);
    const made = new Map<string, string>();
    for (const email of EMAILS) made.set(email, await checkoutOnPage(page, { email }));
    await stack.server.close();

    // Last month's release: each e-mail index under the unkeyed SHA-256 of the address, and its build's mark.
    const keyed = namesUnder(first);
    let store = openSqliteStore({ dataDir });
    for (const email of EMAILS) {
      const [current, unkeyed] = keyed.email(WIDGET, email);
      expect(membersOf(store, current as string)).toEqual([made.get(email)]);
      store.database
        .prepare('UPDATE index_entries SET name = ? WHERE name = ?')
        .run(unkeyed as string, current as string);
    }
    store.database
      .prepare("DELETE FROM entries WHERE key LIKE ? || '%'")
      .run(STORE_KEYS.indexBuilt('checkout'));
    await store.insert(STORE_KEYS.indexBuilt('checkout'), new Date().toISOString(), 86_400_000);
    // Found by this release before any build, whatever the address's case.
    for (const email of EMAILS)
      expect(await searched(store, keyed, email.toUpperCase())).toEqual([made.get(email)]);
    await store.close();

    // Its first start moves them under its key: the unkeyed names are empty.
    store = openSqliteStore({ dataDir });
    let bff = await startBff(stack.sandbox.url, { sessionSecret: first, store });
    try {
      expect((await bff.bff.indexesBuilt).checkout).toBe(2);
      for (const email of EMAILS) {
        const [current, unkeyed] = keyed.email(WIDGET, email);
        expect(membersOf(store, current as string)).toEqual([made.get(email)]);
        expect(membersOf(store, unkeyed as string)).toEqual([]);
        expect(await searchedOverHttp(bff.server.url, email)).toEqual([made.get(email)]);
      }
    } finally {
      await bff.server.close();
    }

    // A rotation: the new root names them from now on; until the build has moved them, the old key's names are read.
    const second = randomBytes(32);
    const rotated = namesUnder(second, first);
    store = openSqliteStore({ dataDir });
    for (const email of EMAILS) expect(await searched(store, rotated, email)).toEqual([made.get(email)]);
    await store.close();
    store = openSqliteStore({ dataDir });
    bff = await startBff(stack.sandbox.url, {
      sessionSecret: second,
      previousSessionSecrets: [first],
      store,
    });
    try {
      expect((await bff.bff.indexesBuilt).checkout).toBe(2);
      for (const email of EMAILS) {
        const [current, underFirst] = rotated.email(WIDGET, email);
        expect(underFirst).toBe(keyed.email(WIDGET, email)[0]);
        expect(membersOf(store, current as string)).toEqual([made.get(email)]);
        expect(membersOf(store, underFirst as string)).toEqual([]);
        expect(await searchedOverHttp(bff.server.url, email)).toEqual([made.get(email)]);
      }
    } finally {
      await bff.server.close();
    }
  });
});
