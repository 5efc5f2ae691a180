/**
 * @module
 * What an outgoing call (an upstream attempt, a webhook delivery) tells whoever observes it: the port the
 * upstream client and the webhook sender call, filled by `observability/outgoing-calls.ts` (metrics and
 * tracing) when either is on. Defined here, below both callers, so neither imports observability.
 */

/** One outgoing call under way. */
export interface OutgoingCall {
  /** Headers to send with the call: `traceparent` when tracing, else none. */
  readonly headers: Record<string, string> | undefined;
  /** The call is over: `ok`, an error code, `timeout`, `network` (upstream); `delivered`, `failed`, `gave_up` (webhooks). */
  end(outcome: string): void;
}

/** Observes the BFF's outgoing calls. */
export interface OutgoingCalls {
  /** One attempt (the first is 0) at the upstream operation `operation`. */
  upstreamCall(operation: string, method: string, retry: number): OutgoingCall;
  /** One attempt at delivering a webhook event of `type`. */
  webhookDelivery(type: string, attempt: number): OutgoingCall;
}
