/**
 * @module
 * What the BFF's outgoing calls (upstream attempts, webhook deliveries) tell observability: each is timed and
 * counted by outcome in the metrics, and — with tracing on — is a client span whose `traceparent` travels with
 * the call. With both off there is no observer at all, and the callers skip it.
 */
import type { OutgoingCalls } from '../upstream/outgoing-call-observer';
import type { BffMetrics } from './metrics';
import type { Tracing } from './tracing';

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
