/**
 * @module
 * The partner server's calls to the BFF's partner API through the partner SDK (`@esim-embed/partner`), with the
 * partner secret that never leaves the server: read a checkout, start its payment (the BFF funds it firmly, or
 * refuses before anything is charged), confirm it once paid, report a declined payment attempt (the widget asks
 * for another card), cancel it when the traveller gives up. Each call answers the checkout or the refusal's code
 * and params as data, for the payment lifecycle to branch on; the SDK sends a confirm again after a network error
 * or a 5xx (one order, however many confirms).
 */
import { createPartnerClient, PartnerApiError, type PartnerCheckout } from '@esim-embed/partner';

/** An answer of the BFF: the checkout, or the error envelope's code and params (status 0: no answer). */
export type BffAnswer =
  | { ok: true; status: number; checkout: PartnerCheckout }
  | { ok: false; status: number; code: string; params: Record<string, unknown> };

export interface PartnerApiClient {
  read(checkoutId: string): Promise<BffAnswer>;
  startPayment(checkoutId: string): Promise<BffAnswer>;
  confirm(checkoutId: string, paymentReference: string): Promise<BffAnswer>;
  decline(checkoutId: string, attempt: number): Promise<BffAnswer>;
  cancel(checkoutId: string): Promise<BffAnswer>;
}

/** The checkout a call answered, or its refusal. */
async function answerOf(call: Promise<PartnerCheckout>): Promise<BffAnswer> {
  try {
    return { ok: true, status: 200, checkout: await call };
  } catch (error) {
    if (!(error instanceof PartnerApiError)) throw error;
    return { ok: false, status: error.status, code: error.code, params: error.params };
  }
}

/** The client for one BFF and partner secret. */
export function createPartnerApiClient(options: { bffUrl: string; partnerSecret: string }): PartnerApiClient {
  const esim = createPartnerClient({ baseUrl: options.bffUrl, partnerSecret: options.partnerSecret });
  return {
    read: (checkoutId) => answerOf(esim.checkouts.read(checkoutId)),
    startPayment: (checkoutId) => answerOf(esim.checkouts.startPayment(checkoutId)),
    confirm: (checkoutId, paymentReference) =>
      answerOf(esim.checkouts.confirm(checkoutId, { paymentReference })),
    decline: (checkoutId, attempt) => answerOf(esim.checkouts.decline(checkoutId, { attempt })),
    cancel: (checkoutId) => answerOf(esim.checkouts.cancel(checkoutId)),
  };
}
