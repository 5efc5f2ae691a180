/**
 * @module
 * A create of a checkout sent but not settled, kept so that no reload makes a second sale. Before the create is
 * sent, the widget keeps in `sessionStorage` (this tab, this origin; per widget, BFF and page:
 * `pendingCreateKey` of `flow/flow-steps.ts`) what it needs to send it again unchanged: the session token it goes
 * under and when that expires, its `Idempotency-Key` and body (the traveller's email among them), the price it
 * was sent at, the plan, and for a top-up the eSIM and its manage token. After a reload (or in a copy of the tab)
 * the widget settles that create first — the same key, body and session, so the BFF's idempotency record of the
 * session answers the checkout it made — and only a create answered for good (a success, or a refusal that
 * is not passing: not a 5xx, a rate limit, a create still running, the store briefly down, nor an answer the
 * widget could not read) frees the form.
 *
 * The session may end before the reload (it began at the first quote): its token can still read back the answer
 * of the create it sent, and nothing else, until the end of the BFF's grace (`replayUntil` of the session's
 * answer), so the create is kept that long. Past it the BFF's record of the create is gone: it cannot be settled
 * any more, nor when the BFF refuses the ended token (no answer kept: the create never arrived, or its holder
 * stopped). It is forgotten, and in its place stays only the mark that a create went unconfirmed, which the
 * checkout shows before the traveller buys again (`earlierPurchaseUnconfirmed`): never a second sale in silence.
 *
 * The token stays where it was: it goes to no other BFF (the BFF is part of the key), never to the page.
 */
import type { CreateCheckoutRequest, CreatedCheckout, Quote } from '@esim-embed/shared';
import type { ApiClient } from '../api/api-client';
import { type PendingPurchase, stillSettleable, storage } from '../flow/flow-steps';

/** A create kept until it is settled. */
export interface PendingCreate extends PendingPurchase {
  /**
   * The session the create was sent under (its idempotency record is that session's), its expiry, and until when
   * after it the token may still read the create's answer back (absent from entries of an earlier release).
   */
  token: string;
  tokenExpiresAt: string;
  replayUntil?: string;
  /** The create's `Idempotency-Key` and body, as first sent. */
  key: string;
  request: CreateCheckoutRequest;
  /** The price it was sent at. */
  quote: Quote;
}

/** What is kept in place of a create that can no longer be settled: no token, no body. */
const UNCONFIRMED = '{"unconfirmed":true}';

/** Where a tab whose storage is blocked keeps its creates: they still settle first while the page lives. */
const inMemory = new Map<string, string>();

function kept(place: string): string | null {
  try {
    const stored = storage()?.getItem(place);
    if (stored != null) return stored;
  } catch {
    // Blocked storage: the page's own memory below.
  }
  return inMemory.get(place) ?? null;
}

function keep(place: string, value: string | null): void {
  try {
    const tab = storage();
    if (tab) {
      if (value === null) tab.removeItem(place);
      else tab.setItem(place, value);
      inMemory.delete(place);
      return;
    }
  } catch {
    // Blocked or full storage: kept for the page's life only.
  }
  if (value === null) inMemory.delete(place);
  else inMemory.set(place, value);
}

function isPendingCreate(entry: Partial<PendingCreate> | null): entry is PendingCreate {
  return (
    typeof entry?.token === 'string' &&
    typeof entry.tokenExpiresAt === 'string' &&
    typeof entry.key === 'string' &&
    typeof entry.request?.quoteId === 'string' &&
    typeof entry.quote?.id === 'string' &&
    typeof entry.plan?.offerId === 'string' &&
    typeof entry.destination?.code === 'string'
  );
}

/**
 * The create kept at `place` to settle; `unconfirmed` where one was kept past its session's grace (it is forgotten
 * now, its mark kept), or that the widget cannot read.
 */
export function keptCreate(place: string): PendingCreate | 'unconfirmed' | null {
  const raw = kept(place);
  if (raw === null) return null;
  let entry: (Partial<PendingCreate> & { unconfirmed?: unknown }) | null = null;
  try {
    entry = JSON.parse(raw);
  } catch {
    // Read as unconfirmed below.
  }
  if (entry?.unconfirmed === true) return 'unconfirmed';
  if (isPendingCreate(entry) && stillSettleable(entry)) return entry;
  keep(place, UNCONFIRMED);
  return 'unconfirmed';
}

/** Keeps `create` at `place`, before it is sent (in place of any mark of an unconfirmed one). */
export function keepCreate(place: string, create: PendingCreate): void {
  keep(place, JSON.stringify(create));
}

/** Forgets the create kept at `place`: settled, or `unconfirmed` (its outcome can no longer be learnt). */
export function forgetCreate(place: string, unconfirmed: boolean): void {
  keep(place, unconfirmed ? UNCONFIRMED : null);
}

/** A send of a kept create under way: its answer, and whether it is the create's first send. */
interface Sending {
  answer: Promise<CreatedCheckout>;
  first: boolean;
}

/** The creates each client is sending, by place: a second caller joins the first rather than sending again. */
const sending = new WeakMap<ApiClient, Map<string, Sending>>();

/**
 * Sends the create kept at `place` as it was first sent (its session, key, body and manage token) — `first` when
 * it never was — or joins the send of it under way on this client: `joined` then, and the caller that sent it
 * shows the checkout.
 */
export function sendCreate(
  client: ApiClient,
  place: string,
  create: PendingCreate,
  first: boolean,
): Sending & { joined: boolean } {
  const places = sending.get(client) ?? new Map<string, Sending>();
  sending.set(client, places);
  const running = places.get(place);
  if (running !== undefined) return { ...running, joined: true };
  const answer = client
    .createCheckout(create.request, create.key, create.topUp?.manageToken, create.token)
    .finally(() => places.delete(place));
  places.set(place, { answer, first });
  return { answer, first, joined: false };
}
