/**
 * @module
 * What the BFF's OpenTelemetry tracing offers the code that traces (request and client spans), and what it runs
 * with. Whether it runs at all is `tracing-start.ts`; the SDK behind it is `tracing-sdk.ts`.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/app-env';
import type { RequestObserver } from '../http/request-observer';

/** A client span under way (an upstream attempt, a webhook delivery). */
export interface ClientSpan {
  /** `traceparent` (W3C trace context) naming this span, to send with the call. */
  readonly headers: Record<string, string>;
  end(outcome: string, failed: boolean): void;
}

/** The BFF's tracing. */
export interface Tracing {
  /** A server span per request, named by the route pattern; calls made while it runs are its children. */
  readonly requestSpan: MiddlewareHandler<AppEnv>;
  /**
   * The server span of a request answered before the app (a kept public catalog read, `http/answer-cache.ts`),
   * recorded once it is answered: named and tagged as {@link requestSpan} names the app's, ended now.
   */
  readonly observeKeptAnswer: RequestObserver;
  /** A client span, child of the current request's span when there is one. */
  clientSpan(name: string, attributes: Record<string, string | number>): ClientSpan;
  /** Export the spans that have ended, now rather than with the next batch. */
  flush(): Promise<void>;
  /** Export what is pending and stop. */
  shutdown(): Promise<void>;
}

/** What tracing runs with, read from the standard OpenTelemetry variables. */
export interface TracingSettings {
  /** The OTLP/HTTP traces endpoint (`…/v1/traces`). */
  tracesEndpoint: string;
  serviceName: string;
}
