/**
 * @module
 * The partner server's calls to the BFF's partner API, with the partner secret that never leaves the server:
 * read a checkout, confirm it once paid, cancel it when the traveller gives up. A confirm that meets a network
 * error or a 5xx is sent again: confirming is safe to repeat (one order, however many confirms).
 */
import type { Money } from './pretend-provider';

/** The fields of a partner checkout (`GET /v1/partner/checkouts/{id}`) the partner server uses. */
export interface PartnerCheckoutView {
  id: string;
  status: 'awaiting_payment' | 'placing' | 'provisioning' | 'ready' | 'failed' | 'expired' | 'cancelled';
  mode: 'partner_confirm' | 'direct';
  amount: Money;
  paymentReference: string | null;
  failure: { code: string; retryable: boolean } | null;
}

/** An answer of the BFF: the checkout, or the error envelope's code and params (status 0: no answer). */
export type BffAnswer =
  | { ok: true; status: number; checkout: PartnerCheckoutView }
  | { ok: false; status: number; code: string; params: Record<string, unknown> };

export interface PartnerApiClient {
  read(checkoutId: string): Promise<BffAnswer>;
  confirm(checkoutId: string, paymentReference: string): Promise<BffAnswer>;
  cancel(checkoutId: string): Promise<BffAnswer>;
}

/** Pauses between confirm attempts. */
const CONFIRM_RETRY_DELAYS_MS = [300, 1_000];

/** The client for one BFF and partner secret. */
export function createPartnerApiClient(options: { bffUrl: string; partnerSecret: string }): PartnerApiClient {
  const headers = { 'Content-Type': 'application/json', 'X-Partner-Secret': options.partnerSecret };
  const checkoutUrl = (id: string) => `${options.bffUrl}/v1/partner/checkouts/${encodeURIComponent(id)}`;

  async function call(method: 'GET' | 'POST', url: string, body?: unknown): Promise<BffAnswer> {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (cause) {
      return { ok: false, status: 0, code: 'network_error', params: { message: String(cause) } };
    }
    const json = (await response.json().catch(() => null)) as {
      data?: PartnerCheckoutView;
      error?: { code?: string; params?: Record<string, unknown> };
    } | null;
    if (response.ok && json?.data !== undefined)
      return { ok: true, status: response.status, checkout: json.data };
    return {
      ok: false,
      status: response.status,
      code: json?.error?.code ?? 'internal',
      params: json?.error?.params ?? {},
    };
  }

  return {
    read: (checkoutId) => call('GET', checkoutUrl(checkoutId)),
    async confirm(checkoutId, paymentReference) {
      let answer = await call('POST', `${checkoutUrl(checkoutId)}/confirm`, { paymentReference });
      for (const delay of CONFIRM_RETRY_DELAYS_MS) {
        if (answer.ok || (answer.status !== 0 && answer.status < 500)) break;
        await new Promise((resolve) => setTimeout(resolve, delay));
        answer = await call('POST', `${checkoutUrl(checkoutId)}/confirm`, { paymentReference });
      }
      return answer;
    },
    cancel: (checkoutId) => call('POST', `${checkoutUrl(checkoutId)}/cancel`),
  };
}
