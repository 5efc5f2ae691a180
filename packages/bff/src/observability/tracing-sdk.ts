/**
 * @module
 * The OpenTelemetry SDK behind {@link Tracing}, imported only when tracing is on (`tracing.ts`). Spans go in
 * batches to the OTLP/HTTP endpoint. Nothing is registered globally: the provider, the async-local context and
 * the W3C propagator belong to this BFF. A request starts a new trace: the BFF faces browsers and the internet,
 * so an incoming `traceparent` is not trusted (no caller decides what is sampled).
 */
import { defaultTextMapSetter, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Tracing, TracingSettings } from './tracing';

/** Tracing with the standard SDK, exporting to `settings.tracesEndpoint`. */
export function createTracing(settings: TracingSettings): Tracing {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.tracesEndpoint }))],
  });
  const tracer = provider.getTracer('esim-embed-bff');
  const contextManager = new AsyncLocalStorageContextManager().enable();
  const propagator = new W3CTraceContextPropagator();

  return {
    async requestSpan(c, next) {
      const method = c.req.method;
      const span = tracer.startSpan(
        method,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': c.req.path } },
        ROOT_CONTEXT,
      );
      try {
        await contextManager.with(trace.setSpan(ROOT_CONTEXT, span), next);
      } finally {
        const route = c.get('route')?.path;
        if (route !== undefined) {
          span.updateName(`${method} ${route}`);
          span.setAttribute('http.route', route);
        }
        const status = c.res.status;
        span.setAttribute('http.response.status_code', status);
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    },
    observeKeptAnswer(route, method, status, seconds) {
      const endMs = performance.timeOrigin + performance.now();
      const attributes: Record<string, string | number | boolean> = {
        'http.request.method': method,
        'http.response.status_code': status,
        'esim.kept_answer': true,
      };
      if (route?.path !== undefined) attributes['http.route'] = route.path;
      const name = route?.path === undefined ? method : `${method} ${route.path}`;
      const span = tracer.startSpan(
        name,
        { kind: SpanKind.SERVER, attributes, startTime: endMs - seconds * 1000 },
        ROOT_CONTEXT,
      );
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end(endMs);
    },
    clientSpan(name, attributes) {
      const parent = contextManager.active();
      const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
      const headers: Record<string, string> = {};
      propagator.inject(trace.setSpan(parent, span), headers, defaultTextMapSetter);
      return {
        headers,
        end(outcome, failed) {
          span.setAttribute('esim.outcome', outcome);
          if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
          span.end();
        },
      };
    },
    flush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown();
      contextManager.disable();
    },
  };
}
