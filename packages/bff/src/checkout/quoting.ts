/**
 * @module
 * Quotes: a price held with the upstream for an offer this widget sells (or a top-up of the eSIM the caller's
 * manage token opens), stored bound to the session that asked, within the session's quote quota; the same offer
 * asked again in the session gets its live quote back without an upstream call.
 */
import type { CreateQuoteRequest, Quote } from '@esim-embed/shared';
import { ApiError } from '../errors';
import { assertManagesEsim } from '../security/manage-claims';
import { enforceLimit } from '../security/rate-limit';
import { type CheckoutContext, hash, newId, type SessionCaller } from './checkout-context';
import type { QuoteRecord } from './checkout-record';
import { liveQuotes } from './live-quotes';

/** Quotes stay readable this long past their expiry, so a late checkout hears `quote_expired`, not "not found". */
const QUOTE_GRACE_MS = 60 * 60 * 1000;
/** Quota windows outlive a session (≤ 15 min), so a quota is per session in practice. */
export const SESSION_QUOTA_WINDOW_MS = 60 * 60 * 1000;

/** How long a quote expiring at `expiresAt` is kept from `time` on. */
export const quoteTtlMs = (expiresAt: string, time: number) =>
  Math.max(0, Date.parse(expiresAt) - time) + QUOTE_GRACE_MS;

/** `createQuote` of the checkout service. */
export function quoting(context: CheckoutContext) {
  const { store, repository, now } = context;
  const live = liveQuotes(store, repository, now);
  const asQuote = (record: QuoteRecord): Quote => ({
    id: record.id,
    offerId: record.offerId,
    kind: record.kind,
    esimId: record.esimId,
    plan: record.plan,
    price: record.price,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
  });
  return {
    async createQuote(
      caller: SessionCaller,
      body: CreateQuoteRequest,
      idempotencyKey: string,
    ): Promise<Quote> {
      const { claims, widget } = caller;
      await enforceLimit(store, {
        name: `quotes:${claims.sid}`,
        limit: widget.config.limits.quotesPerSession,
        windowMs: SESSION_QUOTA_WINDOW_MS,
      });
      const locale = body.locale ?? widget.config.defaultLocale;
      const esimId = body.esimId ?? null;
      if (esimId === null) {
        // The offer must be one this widget sells (and throws offer_not_found otherwise).
        await widget.catalog.planForOffer(body.offerId, locale);
      } else {
        // A top-up: only for the eSIM the manage token opens; the upstream checks the offer tops it up.
        assertManagesEsim(caller.manage, caller.widget.config, esimId);
        if (!(await widget.catalog.fitness()).offersTopUps) {
          throw new ApiError('action_not_available', { params: { action: 'top_up' } });
        }
      }
      const subject = { sessionId: claims.sid, offerId: body.offerId, esimId, locale };
      const reused = await live.find(subject);
      if (reused !== null) return asQuote(reused);
      // Only now, for a quote to be made: a reused one was checked when it was made (one upstream call less).
      if (esimId === null) await widget.catalog.routeServed(body.offerId);
      const upstreamQuote = await widget.upstream.createQuote(
        esimId === null ? { offerId: body.offerId } : { offerId: body.offerId, esimId },
        { idempotencyKey: `quote-${claims.sid}-${hash(idempotencyKey)}` },
      );
      const { plan, price } = await widget.catalog.quotedPlan(upstreamQuote, locale);
      const record: QuoteRecord = {
        id: newId('quo'),
        widgetId: widget.config.id,
        sessionId: claims.sid,
        upstreamQuoteId: upstreamQuote.id,
        offerId: upstreamQuote.offerId,
        kind: esimId === null ? 'issue' : 'top_up',
        esimId,
        plan,
        price,
        wholesale: upstreamQuote.price,
        checkoutId: null,
        createdAt: new Date(now()).toISOString(),
        expiresAt: upstreamQuote.expiresAt,
      };
      await repository.insertQuote(record, quoteTtlMs(record.expiresAt, now()));
      await live.remember(subject, record);
      return asQuote(record);
    },
  };
}
