/**
 * @module
 * The framework-neutral core of the webhook handlers: verify a delivery, run the handler of its event type, and
 * say what to answer — 204 when handled (or when no handler is set for its type), 400 when it does not verify,
 * 500 when the handler failed, so that the BFF retries it (docs/webhooks.md: anything but a 2xx is retried).
 * `@esim-embed/partner/express` and `@esim-embed/partner/hono` adapt it; call it directly from any other server.
 */
import type { WebhookEvent, WebhookEventType } from '@esim-embed/shared';
import {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
} from './verify-webhook';

/** The event of one type, with `data` narrowed to what that type carries. */
export type WebhookEventOf<Type extends WebhookEventType> = WebhookEvent extends infer Event
  ? Event extends WebhookEvent
    ? Type extends Event['type']
      ? Event & { type: Type }
      : never
    : never
  : never;

/** A handler per event type; a type without one is acknowledged and ignored. */
export type WebhookHandlers = {
  [Type in WebhookEventType]?: (event: WebhookEventOf<Type>) => unknown;
};

/** What the webhook handlers take. */
export interface WebhookHandlerOptions extends VerifyWebhookOptions {
  /** The webhook secret (the BFF config's `webhookSecretEnv`), or several while rotating. */
  secret: string | readonly string[];
  /**
   * What to do with each event, by type. Delivery is at least once: de-duplicate on `event.id`. Keep handlers
   * quick (the BFF waits 10 s): store the event and do slow work afterwards. A handler that throws makes the
   * answer a 500, and the BFF sends the event again later.
   */
  handlers?: WebhookHandlers;
  /** Runs for every verified event before the handler of its type (to record or de-duplicate them all). */
  onEvent?: (event: WebhookEvent) => unknown;
  /**
   * Hears every refused delivery and failed handler, instead of the default report: a refused delivery is one
   * warning line through `logger` (its reason, never the body or a secret), a failed handler an error through it.
   */
  onError?: (error: unknown, event?: WebhookEvent) => void;
  /** Where the default report goes (default `console`: refusals with `console.warn`, failed handlers `console.error`). */
  logger?: WebhookLogger;
}

/** What the default report writes to: `console`, or your logger (pino, winston and the like have both methods). */
export interface WebhookLogger {
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** What to answer a delivery. */
export interface WebhookAnswer {
  status: 204 | 400 | 500;
  /** The JSON body (null with 204). */
  body: { error: { code: 'webhook_invalid' | 'webhook_handler_failed' } } | null;
  /** The verified event, once it verified. */
  event?: WebhookEvent;
}

/**
 * The options, checked once when a handler is made: a handler without a secret (an unset variable) would refuse
 * every delivery, so it is a mistake to report at start rather than on the first event.
 */
export function checkedWebhookOptions(options: WebhookHandlerOptions): WebhookHandlerOptions {
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  if (!secrets.some((secret) => secret !== ''))
    throw new TypeError(
      'eSIM Embed webhooks: `secret` is empty; set it to the webhook secret the BFF signs with',
    );
  return options;
}

/** The default report: one warning line per refused delivery (why, not what it carried), an error per failed handler. */
const reportTo =
  (logger: WebhookLogger) =>
  (error: unknown, event?: WebhookEvent): void => {
    if (event !== undefined) {
      logger.error(`eSIM Embed webhook ${event.id} (${event.type}) handler failed`, error);
    } else if (error instanceof WebhookVerificationError) {
      logger.warn(
        `eSIM Embed webhook refused with 400: ${error.reason} (check that the secret is the BFF's webhookSecretEnv and the body reaches the handler unparsed)`,
      );
    }
  };

/**
 * Verifies one delivery and runs its handler.
 *
 * @example
 * const answer = await handleWebhookRequest(options, rawBody, req.headers);
 * res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(answer.body && JSON.stringify(answer.body));
 */
export async function handleWebhookRequest(
  options: WebhookHandlerOptions,
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
): Promise<WebhookAnswer> {
  const report = options.onError ?? reportTo(options.logger ?? console);
  let event: WebhookEvent;
  try {
    event = await verifyWebhook(rawBody, headers, options.secret, options);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    report(error);
    return { status: 400, body: { error: { code: 'webhook_invalid' } } };
  }
  const handler = options.handlers?.[event.type] as ((event: WebhookEvent) => unknown) | undefined;
  try {
    await options.onEvent?.(event);
    await handler?.(event);
  } catch (error) {
    report(error, event);
    return { status: 500, body: { error: { code: 'webhook_handler_failed' } }, event };
  }
  return { status: 204, body: null, event };
}
