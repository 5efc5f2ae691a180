/**
 * @module
 * Test support for after-sale tests: buy an eSIM that can be topped up through the real BFF and sandbox,
 * and open its "my eSIM" view with a manage token.
 */
import { CHECKOUT_SECRET_HEADER, MANAGE_TOKEN_HEADER, type Plan } from '@esim-embed/shared';
import { type Answer, eventually, newKey, type WidgetPage } from './stack';

/** A bought eSIM and the manage token that opens it. */
export interface BoughtEsim {
  checkoutId: string;
  clientSecret: string;
  esimId: string;
  manageToken: string;
  manageLinkId: string;
  plan: Plan;
}

/** A fixed-data plan whose offer guarantees top-ups (so the eSIM has top-up offers). */
export async function topUpablePlan(page: WidgetPage): Promise<Plan> {
  const destinations = await page.get('/v1/destinations?locale=en');
  if (destinations.status !== 200) throw new Error(`destinations: ${destinations.text}`);
  for (const destination of destinations.body.data as { code: string; kind: string }[]) {
    if (destination.kind !== 'country') continue;
    const plans = await page.get(`/v1/destinations/${destination.code}/plans`);
    const plan = (plans.body.data as Plan[]).find(
      (candidate) => candidate.kind === 'fixed' && candidate.topUp === 'guaranteed',
    );
    if (plan !== undefined) return plan;
  }
  throw new Error('no plan with guaranteed top-ups in the sandbox catalog');
}

/** Wait until a checkout is `ready` (or fail on a terminal failure). */
export async function untilReady(page: Pick<WidgetPage, 'get'>, checkoutId: string, clientSecret: string) {
  return await eventually(async () => {
    const status = await page.get(`/v1/checkouts/${checkoutId}`, { [CHECKOUT_SECRET_HEADER]: clientSecret });
    if (status.status !== 200) throw new Error(`checkout read: ${status.text}`);
    const current = status.body.data.status;
    if (['failed', 'expired', 'cancelled'].includes(current)) throw new Error(`checkout ${current}`);
    return current === 'ready' ? status.body.data : undefined;
  });
}

/** Buy an eSIM in a `direct` widget and mint its manage link. */
export async function buyEsim(page: WidgetPage): Promise<BoughtEsim> {
  const plan = await topUpablePlan(page);
  const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
  if (quote.status !== 201) throw new Error(`quote: ${quote.text}`);
  const checkout = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
    { 'Idempotency-Key': newKey() },
  );
  if (checkout.status !== 201) throw new Error(`checkout: ${checkout.text}`);
  const { id, clientSecret } = checkout.body.data;
  await untilReady(page, id, clientSecret);
  const link = await page.post(
    `/v1/checkouts/${id}/manage-link`,
    {},
    { [CHECKOUT_SECRET_HEADER]: clientSecret },
  );
  if (link.status !== 201) throw new Error(`manage link: ${link.text}`);
  return {
    checkoutId: id,
    clientSecret,
    esimId: link.body.data.esimId,
    manageToken: link.body.data.manageToken,
    manageLinkId: link.body.data.id,
    plan,
  };
}

/** `GET /v1/my-esim` with a manage token. */
export function myEsim(page: WidgetPage, manageToken: string, query = ''): Promise<Answer> {
  return page.get(`/v1/my-esim${query}`, { [MANAGE_TOKEN_HEADER]: manageToken });
}
