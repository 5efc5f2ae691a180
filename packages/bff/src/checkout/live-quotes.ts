/**
 * @module
 * A session's live quotes by what they quote (offer, top-up target, locale): a second quote of the same offer in
 * the same session gets the live one back — not expired, not used by a checkout — and costs the upstream nothing.
 */
import { STORE_KEYS, type Store } from '../store/store';
import { hash } from './checkout-context';
import type { CheckoutRepository, QuoteRecord } from './checkout-record';

/** A quote is given again only with at least this long left, so that the traveller still has time to check out. */
export const MIN_REUSED_QUOTE_LIFE_MS = 2 * 60 * 1000;

/** What makes two quote requests of one session the same. */
export interface QuoteSubject {
  sessionId: string;
  offerId: string;
  esimId: string | null;
  locale: string;
}

const subjectKey = (subject: QuoteSubject) =>
  STORE_KEYS.sessionQuote(
    subject.sessionId,
    hash(`${subject.offerId}\n${subject.esimId ?? ''}\n${subject.locale}`),
  );

/** The live quotes of sessions, in the store. */
export function liveQuotes(store: Store, repository: CheckoutRepository, now: () => number) {
  return {
    /** The session's live quote of this subject, or null. */
    async find(subject: QuoteSubject): Promise<QuoteRecord | null> {
      const pointer = await store.get(subjectKey(subject));
      if (pointer === null) return null;
      const quote = (await repository.getQuote(pointer.value))?.record;
      if (quote === undefined || quote.sessionId !== subject.sessionId || quote.checkoutId !== null)
        return null;
      return Date.parse(quote.expiresAt) - now() >= MIN_REUSED_QUOTE_LIFE_MS ? quote : null;
    },
    /** Remember `quote` as the session's live quote of this subject (replacing a used or expired one). */
    async remember(subject: QuoteSubject, quote: QuoteRecord): Promise<void> {
      const key = subjectKey(subject);
      const ttlMs = Math.max(1, Date.parse(quote.expiresAt) - now());
      if (await store.insert(key, quote.id, ttlMs)) return;
      const current = await store.get(key);
      // Lost to a concurrent quote of the same subject: either one is fine to give again.
      if (current !== null) await store.compareAndSet(key, current.version, quote.id, ttlMs);
    },
  };
}
