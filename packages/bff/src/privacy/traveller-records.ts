/**
 * @module
 * Where one traveller's personal data is kept besides their checkouts' index, and each kind of record rewritten
 * without it (the steps of an erasure, `privacy-erasures.ts`): webhook deliveries, kept answers of idempotent
 * requests, help requests, and the checkouts themselves. Each rewrite is a compare-and-set that writes only what
 * changed, so running it again after a crash rewrites nothing twice; each answers what it found and rewrote.
 */

import { ACTION_REQUEST_INDEXES } from '../after-sale/action-request-desk';
import { withoutReasonDetail } from '../after-sale/action-request-watch';
import { searchedEmail } from '../checkout/checkout-index';
import { type CheckoutRecord, type CheckoutRepository, checkoutSlot } from '../checkout/checkout-record';
import { STORE_KEYS, type Store } from '../store/store';
import { storeSlot, versionedUpdate, writeValue } from '../store/versioned-update';
import { DELIVERY_INDEXES, type WebhookQueue } from '../webhooks/webhook-queue';
import { type ErasedAddresses, jsonWithoutAddresses, mentionsAny } from './personal-data';
import { indexMembers } from './privacy-subjects';

/** Keys read per page of the scan for kept answers. */
const SCAN_PAGE = 500;

/** Records found about a traveller, and those rewritten because they held personal data. */
export interface Rewritten {
  found: number;
  erased: number;
}

export interface TravellerRecordsOptions {
  store: Store;
  /** The checkout repository every checkout write goes through (its indexes kept with it). */
  repository: CheckoutRepository;
  webhookQueue: Pick<WebhookQueue, 'read' | 'update'>;
  /** How long a rewritten kept answer lives (the longest any is kept). */
  keptAnswerTtlMs: number;
  /** How long a rewritten help request lives (`retention.actionRequestDays`). */
  actionRequestTtlMs: number;
}

/** The rewrites of one traveller's records. */
export interface TravellerRecords {
  /**
   * The webhook deliveries about `checkouts` and about help requests of `esimIds` (read from each widget's
   * `action_request.updated` deliveries, a few days' worth), their bodies without the traveller.
   */
  deliveries(
    checkouts: readonly CheckoutRecord[],
    widgetIds: readonly string[],
    esimIds: readonly string[],
    addresses: ErasedAddresses,
  ): Promise<Rewritten>;
  /**
   * The kept answers of idempotent requests that name `addresses`, rewritten without them. Kept answers are found
   * by no index (a key is the digest of a client's key): the one scan of them, a day's worth at most.
   */
  keptAnswers(addresses: ErasedAddresses): Promise<number>;
  /** The help requests about `esimIds` in their widgets, without their free text and `addresses`. */
  actionRequests(
    widgetIds: readonly string[],
    esimIds: readonly string[],
    addresses: ErasedAddresses,
  ): Promise<Rewritten>;
  /** The checkouts `checkoutIds` without their traveller; answers how many held personal data. */
  checkouts(checkoutIds: readonly string[], addresses: ErasedAddresses): Promise<number>;
}

/** The {@link TravellerRecords} of a store. */
export function createTravellerRecords(options: TravellerRecordsOptions): TravellerRecords {
  const { store, repository, webhookQueue } = options;
  const members = (name: string) => indexMembers(store, name);

  /** Rewrite one stored value without `addresses`; true when it held one (and was rewritten). */
  async function rewriteKey(key: string, addresses: ErasedAddresses, ttlMs: number): Promise<boolean> {
    const outcome = await versionedUpdate(storeSlot(store, key, ttlMs), (current) => {
      const next = current === null ? null : jsonWithoutAddresses(current.value, addresses);
      return next === null ? { kind: 'leave', result: false } : writeValue(next, true);
    });
    if (outcome.kind === 'contended') throw new Error(`${key} kept changing`);
    return outcome.kind === 'written';
  }

  /** A delivery's body without the traveller: their address, and a help request's free text about them. */
  function bodyWithout(body: string, addresses: ErasedAddresses): string | null {
    const event = JSON.parse(body) as { data?: { actionRequest?: { reason?: { detail?: unknown } } } };
    const request = event.data?.actionRequest;
    const text =
      request === undefined
        ? body
        : JSON.stringify({ ...event, data: { ...event.data, actionRequest: withoutReasonDetail(request) } });
    const next = jsonWithoutAddresses(text, addresses) ?? text;
    return next === body ? null : next;
  }

  /**
   * The webhook deliveries about `checkouts` and about help requests of `esimIds` (read from each widget's
   * `action_request.updated` deliveries, a few days' worth), their bodies without the traveller: found, and rewritten.
   */
  async function eraseDeliveries(
    checkouts: readonly CheckoutRecord[],
    widgetIds: readonly string[],
    esimIds: readonly string[],
    addresses: ErasedAddresses,
  ) {
    const ids = new Set<string>();
    for (const checkout of checkouts) {
      for (const id of await members(DELIVERY_INDEXES.checkout(checkout.widgetId, checkout.id))) ids.add(id);
    }
    const esims = new Set(esimIds);
    for (const widgetId of widgetIds) {
      for (const id of await members(DELIVERY_INDEXES.type(widgetId, 'action_request.updated'))) {
        const stored = await webhookQueue.read(id);
        if (stored?.delivery.esimId != null && esims.has(stored.delivery.esimId)) ids.add(id);
      }
    }
    let erased = 0;
    for (const id of ids) {
      for (let round = 0; round < 5; round += 1) {
        const stored = await webhookQueue.read(id);
        const body = stored === null ? null : bodyWithout(stored.delivery.body, addresses);
        if (stored === null || body === null) break;
        if ((await webhookQueue.update(stored, { ...stored.delivery, body })) !== null) {
          erased += 1;
          break;
        }
      }
    }
    return { found: ids.size, erased };
  }

  /**
   * The kept answers of idempotent requests that name `addresses`, rewritten without them. Kept answers are
   * found by no index (a key is the digest of a client's key): the one scan of them, a day's worth at most.
   */
  async function eraseKeptAnswers(addresses: ErasedAddresses): Promise<number> {
    if (addresses.size === 0) return 0;
    let erased = 0;
    let cursor: string | null = null;
    do {
      const page = await store.scanKeys(STORE_KEYS.idempotency('', '').slice(0, -1), cursor, SCAN_PAGE);
      for (const key of page.keys) {
        if (await rewriteKey(key, addresses, options.keptAnswerTtlMs)) erased += 1;
      }
      cursor = page.cursor;
    } while (cursor !== null);
    return erased;
  }

  /** The help requests about `esimIds` in their widgets, without `addresses`: found, and rewritten. */
  async function eraseActionRequests(
    widgetIds: readonly string[],
    esimIds: readonly string[],
    addresses: ErasedAddresses,
  ) {
    const ids = new Set<string>();
    for (const widgetId of widgetIds) {
      for (const esimId of esimIds) {
        for (const id of await members(ACTION_REQUEST_INDEXES.esim(widgetId, esimId))) ids.add(id);
      }
    }
    let erased = 0;
    for (const id of ids) {
      const outcome = await versionedUpdate(
        storeSlot(store, STORE_KEYS.actionRequest(id), options.actionRequestTtlMs),
        (current) => {
          if (current === null) return { kind: 'leave', result: false };
          const record = JSON.parse(current.value) as { view?: { reason?: { detail?: unknown } } };
          // The partner's own words about the traveller go whole: they may name the person otherwise than by address.
          const text = JSON.stringify(
            record.view === undefined ? record : { ...record, view: withoutReasonDetail(record.view) },
          );
          const next = jsonWithoutAddresses(text, addresses) ?? text;
          return next === current.value ? { kind: 'leave', result: false } : writeValue(next, true);
        },
      );
      if (outcome.kind === 'contended') throw new Error(`help request ${id} kept changing`);
      if (outcome.kind === 'written') erased += 1;
    }
    return { found: ids.size, erased };
  }

  /** A checkout without its traveller: the address, the digest of the client address, error texts naming it. */
  function withoutTraveller(record: CheckoutRecord, addresses: ErasedAddresses): CheckoutRecord {
    const mail = record.installationEmail;
    const named = mail?.lastError != null && mentionsAny(mail.lastError, addresses);
    return {
      ...record,
      email: null,
      openedFrom: null,
      installationEmail: mail === null || !named ? mail : { ...mail, lastError: null },
    };
  }

  /** Erase the traveller from each of `checkoutIds`; answers how many held personal data. */
  async function eraseCheckouts(checkoutIds: readonly string[], addresses: ErasedAddresses): Promise<number> {
    let erased = 0;
    for (const id of checkoutIds) {
      const outcome = await versionedUpdate(checkoutSlot(repository, id), (current) => {
        if (current === null) return { kind: 'leave', result: false };
        const own = new Set(addresses);
        if (current.record.email !== null) own.add(searchedEmail(current.record.email));
        const next = withoutTraveller(current.record, own);
        const changed =
          current.record.email !== null ||
          current.record.openedFrom !== null ||
          next.installationEmail !== current.record.installationEmail;
        return changed ? writeValue(next, true) : { kind: 'leave', result: false };
      });
      if (outcome.kind === 'contended') throw new Error(`checkout ${id} kept changing`);
      if (outcome.kind === 'written') erased += 1;
    }
    return erased;
  }

  return {
    deliveries: eraseDeliveries,
    keptAnswers: eraseKeptAnswers,
    actionRequests: eraseActionRequests,
    checkouts: eraseCheckouts,
  };
}
