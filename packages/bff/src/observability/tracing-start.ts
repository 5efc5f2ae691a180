/**
 * @module
 * OpenTelemetry traces, off unless the standard variables ask for them (`OTEL_TRACES_EXPORTER=otlp`, or an
 * `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`). The SDK is imported only then
 * (`tracing-sdk.ts`, loaded lazily): an unconfigured BFF runs none of it and adds no `traceparent` anywhere.
 */
import type { Tracing, TracingSettings } from './tracing';

type Env = Record<string, string | undefined>;

const set = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

/**
 * The tracing settings, or null when tracing is off. Strict like `LOG_LEVEL`: an exporter or protocol the BFF
 * does not speak, or an endpoint that is no http(s) URL, throws with what to set instead.
 */
export function tracingSettingsFrom(env: Env): TracingSettings | null {
  if (set(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true') return null;
  const exporter = set(env.OTEL_TRACES_EXPORTER)?.toLowerCase();
  if (exporter !== undefined && exporter !== 'otlp' && exporter !== 'none') {
    throw new Error(`OTEL_TRACES_EXPORTER=${env.OTEL_TRACES_EXPORTER} is not one of otlp, none`);
  }
  const tracesEndpoint = set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const endpoint = set(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (
    exporter === 'none' ||
    (exporter === undefined && tracesEndpoint === undefined && endpoint === undefined)
  ) {
    return null;
  }
  const protocol = set(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? set(env.OTEL_EXPORTER_OTLP_PROTOCOL);
  if (protocol !== undefined && protocol !== 'http/json' && protocol !== 'http/protobuf') {
    throw new Error(
      `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: the BFF exports OTLP over HTTP (JSON bodies, which every OTLP/HTTP ` +
        "receiver accepts); point it at the collector's HTTP port (4318) with http/json or http/protobuf",
    );
  }
  const url = tracesEndpoint ?? `${(endpoint ?? 'http://localhost:4318').replace(/\/+$/, '')}/v1/traces`;
  if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) {
    throw new Error(`the OTLP traces endpoint ${url} is not an http(s) URL`);
  }
  return { tracesEndpoint: url, serviceName: set(env.OTEL_SERVICE_NAME) ?? 'esim-embed-bff' };
}

/** Tracing as the environment asks for it: null when off (nothing of the SDK is loaded then). */
export async function startTracing(env: Env): Promise<Tracing | null> {
  const settings = tracingSettingsFrom(env);
  if (settings === null) return null;
  const { createTracing } = await import('./tracing-sdk');
  return createTracing(settings);
}
