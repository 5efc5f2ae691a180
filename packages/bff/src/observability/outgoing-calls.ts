/**
 * @module
 * What the BFF's outgoing calls (upstream attempts, webhook deliveries) tell observability: each is timed and
 * counted by outcome in the metrics, and — with tracing on — is a client span whose `traceparent` travels with
 * the call. With both off there is no observer at all, and the callers skip it.
 */
import type { BffMetrics } from './metrics';
import type { Tracing } from './tracing';

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

/** The observer of outgoing calls for these metrics and this tracing; undefined when neither is on. */
export function outgoingCalls(
  metrics: BffMetrics | null,
  tracing: Tracing | null,
): OutgoingCalls | undefined {
  if (metrics === null && tracing === null) return undefined;
  return {
    upstreamCall(operation, method, retry) {
      const started = performance.now();
      const span = tracing?.clientSpan(`upstream ${operation}`, {
        'http.request.method': method,
        'esim.upstream.operation': operation,
        'http.request.resend_count': retry,
      });
      return {
        headers: span?.headers,
        end(outcome) {
          metrics?.upstreamRequestDuration.observe(
            { operation, outcome },
            (performance.now() - started) / 1000,
          );
          span?.end(outcome, outcome !== 'ok');
        },
      };
    },
    webhookDelivery(type, attempt) {
      const span = tracing?.clientSpan(`webhook ${type}`, {
        'http.request.method': 'POST',
        'esim.webhook.type': type,
        'esim.webhook.attempt': attempt,
      });
      return {
        headers: span?.headers,
        end(outcome) {
          metrics?.webhookAttempts.inc({ type, outcome });
          span?.end(outcome, outcome !== 'delivered');
        },
      };
    },
  };
}
