/**
 * @module
 * Quoting: the chosen plan's price held by the BFF for a while (`esim-quote` to the host page), asked again
 * when the hold runs out, when the language changes, or when a checkout found the price expired or moved;
 * a price that moved since the traveller last saw it is kept as a notice to show before they commit.
 */
import type { Locale, NonNegativeMoney, Plan, Quote } from '@esim-embed/shared';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { newIdempotencyKey } from '../api/api-client';
import { EsimQuoteEvent } from '../events';
import type { TopUpOrigin } from '../flow/flow-steps';
import { useWidget } from '../flow/widget-context';
import { useWriteAction } from '../hooks/use-write-action';

/** A quote in the making. */
export interface Quoting {
  /** The price held now; null while it is asked for (or when asking failed). */
  quote: Quote | null;
  /** The price to show: the held one, else the last one the traveller saw. */
  price: NonNegativeMoney;
  /** Set when a new quote's price differs from the one shown before it. */
  priceChange: { from: NonNegativeMoney; to: NonNegativeMoney } | null;
  /** Whether a quote was already shown, so that the one being asked for is a re-quote. */
  requoting: boolean;
  /** Why the last quote could not be had, or null. */
  error: unknown;
  /** How many quotes in a row could not be had. */
  failures: number;
  /** Asks for a fresh quote. */
  requote: () => void;
}

/**
 * Quotes `plan` (for a top-up of `topUp`'s eSIM when given) as soon as the step shows; with `held`, that price
 * is the one shown first and asked again only when it runs out (a create kept from before a reload was sent at it).
 */
export function useQuote(plan: Plan, topUp: TopUpOrigin | undefined, held?: Quote): Quoting {
  const { client, locale, emit } = useWidget();
  const [quote, setQuote] = useState<Quote | null>(held ?? null);
  const [priceChange, setPriceChange] = useState<Quoting['priceChange']>(null);
  const [requoting, setRequoting] = useState(held !== undefined);
  const shownPrice = useRef(held?.price ?? plan.price);
  const quoteFirst = useRef(held === undefined);

  const request = useWriteAction(async (offerId: string, inLocale: Locale) => {
    setQuote(null);
    const fresh = await client.createQuote(offerId, inLocale, newIdempotencyKey('quote'), topUp);
    if (fresh.price.amountMinor !== shownPrice.current.amountMinor) {
      setPriceChange({ from: shownPrice.current, to: fresh.price });
    }
    shownPrice.current = fresh.price;
    setQuote(fresh);
    setRequoting(true);
    emit(
      new EsimQuoteEvent({
        quoteId: fresh.id,
        offerId: fresh.offerId,
        amount: fresh.price,
        expiresAt: fresh.expiresAt,
      }),
    );
  });
  const { run } = request;
  const requote = useCallback(() => void run(plan.offerId, locale), [plan.offerId, locale]);
  useEffect(() => {
    if (quoteFirst.current) requote();
    quoteFirst.current = true;
  }, [requote]);

  return {
    quote,
    price: quote?.price ?? shownPrice.current,
    priceChange,
    requoting,
    error: request.error,
    failures: request.failures,
    requote,
  };
}
