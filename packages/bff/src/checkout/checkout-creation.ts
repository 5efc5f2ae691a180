/**
 * @module
 * Creating a checkout from a quote: the session's checkout quota, the partner's funding held and the spend caps
 * counted before anyone is asked to pay, the quote taken once, and a create whose holder was lost resumed by its
 * retry (same id, same hold). A `direct` checkout has its order placed before the create answers.
 */
import type { CreateCheckoutRequest, CreatedCheckout } from '@esim-embed/shared';
import { ApiErrorCodeSchema } from '@esim-embed/shared';
import { ApiError } from '../errors';
import { assertManagesEsim } from '../security/manage-claims';
import { enforceLimit } from '../security/rate-limit';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { CheckoutContext, SessionCaller } from './checkout-context';
import { toCheckout } from './checkout-reads';
import type { CheckoutRecord } from './checkout-record';
import { quoteTtlMs, SESSION_QUOTA_WINDOW_MS } from './quoting';
import { reserveSpend } from './spend-caps';

/** `createCheckout`, `checkoutIdFor` and `clientSecretOf` of the checkout service. */
export function checkoutCreation(context: CheckoutContext) {
  const { store, logger, secrets, repository, sync, funding, now } = context;

  /**
   * A new (or resumed) checkout as its create answers it: a `direct` one with its order placed, or still
   * `placing` when another worker holds the placement or the upstream asked to wait.
   */
  async function placed(record: CheckoutRecord, widget: WidgetRuntime): Promise<CreatedCheckout> {
    const current = record.mode === 'direct' ? (await sync.place(record.id, widget)).record : record;
    if (current.status === 'failed' && current.failure !== null) {
      // The upstream refused the order outright (price_changed, insufficient_balance, …): nothing was sold,
      // so the create answers that refusal and the widget can re-quote or explain.
      const code = ApiErrorCodeSchema.safeParse(current.failure.code);
      throw new ApiError(code.success ? code.data : 'internal', {
        params: { checkoutId: record.id, retryable: current.failure.retryable },
      });
    }
    return { ...toCheckout(current), clientSecret: secrets.secretFor(record.id) };
  }

  return {
    async createCheckout(
      caller: SessionCaller,
      body: CreateCheckoutRequest,
      id: string,
    ): Promise<CreatedCheckout> {
      const { claims, widget } = caller;
      const config = widget.config;
      if (config.emailRequired && body.email === undefined) {
        throw new ApiError('validation_failed', { params: { field: 'email', reason: 'required' } });
      }
      const quote = await repository.getQuote(body.quoteId);
      if (quote === null || quote.record.sessionId !== claims.sid || quote.record.widgetId !== config.id) {
        throw new ApiError('quote_not_found', { params: { field: 'quoteId' } });
      }
      if (quote.record.esimId !== null)
        assertManagesEsim(caller.manage, caller.widget.config, quote.record.esimId);
      const time = now();
      const quoteExpired = Date.parse(quote.record.expiresAt) <= time;
      const paymentDeadline = time + config.paymentWindowMinutes * 60_000;
      // The quote's price holds until its expiry: a payment awaited longer could not be honoured.
      const expiresAt = new Date(Math.min(paymentDeadline, Date.parse(quote.record.expiresAt))).toISOString();
      const status = config.checkoutMode === 'direct' ? 'placing' : 'awaiting_payment';
      // A retry whose key was taken over from a lost holder (see http/idempotency.ts) finds the quote taken by
      // this very checkout id: it resumes that checkout instead of hearing quote_consumed.
      let resumed = quote.record.checkoutId === id;
      const openedFrom = secrets.openerOf(caller.address ?? 'unknown');
      if (!resumed) {
        if (quoteExpired) throw new ApiError('quote_expired');
        if (quote.record.checkoutId !== null) throw new ApiError('quote_consumed');
        await enforceLimit(store, {
          name: `checkouts:${claims.sid}`,
          limit: config.limits.checkoutsPerSession,
          windowMs: SESSION_QUOTA_WINDOW_MS,
        });
        // Before anyone is asked to pay: the partner's account must fund the order, less what others hold
        // (a checkout awaiting payment within the unpaid caps of its address, its session and the account).
        await funding?.hold(widget, id, quote.record.wholesale, {
          status,
          expiresAt,
          address: openedFrom,
          session: claims.sid,
        });
        // The spend is counted before the quote is taken: a checkout over a cap leaves the quote unused.
        const giveBackSpend = await reserveSpend(store, caller, quote.record.wholesale, now()).catch(
          async (error: unknown) => {
            await funding?.release(widget, id);
            throw error;
          },
        );
        // One checkout per quote: taken by compare-and-set, so a double submit with two keys gets quote_consumed.
        const quoteTtl = quoteTtlMs(quote.record.expiresAt, time);
        if (!(await repository.updateQuote(quote, { ...quote.record, checkoutId: id }, quoteTtl))) {
          await giveBackSpend();
          // Taken meanwhile by a stalled holder of this same key (same id, same funding hold): resume with it.
          resumed = (await repository.getQuote(body.quoteId))?.record.checkoutId === id;
          if (!resumed) {
            await funding?.release(widget, id);
            throw new ApiError('quote_consumed');
          }
        }
      }
      const existing = resumed ? await repository.getCheckout(id) : null;
      if (existing !== null) {
        logger.warn('checkout create resumed', {
          checkoutId: id,
          widgetId: config.id,
          status: existing.record.status,
        });
        return await placed(existing.record, widget);
      }
      // A holder lost between taking the quote and writing the checkout: this retry writes it.
      if (resumed && quoteExpired) throw new ApiError('quote_expired');

      const createdAt = new Date(time).toISOString();
      const record: CheckoutRecord = {
        id,
        widgetId: config.id,
        environment: config.environment,
        sessionId: claims.sid,
        openedFrom,
        origin: claims.org,
        mode: config.checkoutMode,
        kind: quote.record.kind,
        esimId: quote.record.esimId,
        status,
        upstreamQuoteId: quote.record.upstreamQuoteId,
        amount: quote.record.price,
        wholesale: quote.record.wholesale,
        plan: quote.record.plan,
        email: body.email ?? null,
        locale: body.locale,
        failure: null,
        paymentReference: null,
        declinedAttempts: 0,
        order: null,
        placement: { attempts: 0, leaseUntil: null },
        syncedAt: null,
        installationEmail: null,
        expiresAt,
        createdAt,
        updatedAt: createdAt,
      };
      if (!(await repository.insertCheckout(record))) throw new ApiError('internal');
      if (resumed)
        logger.warn('checkout create resumed: written after its holder was lost', { checkoutId: id });
      logger.info('checkout created', { checkoutId: id, widgetId: config.id, mode: record.mode });
      return await placed(record, widget);
    },

    clientSecretOf: (id: string): string => secrets.secretFor(id),

    checkoutIdFor: (createKey: string): string => secrets.checkoutIdFor(createKey),
  };
}
