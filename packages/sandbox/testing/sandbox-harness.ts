/**
 * @module
 * Test support: an in-process sandbox with zero step delays and a manual clock, a caller that parses every
 * success with the strict shared schema the test names and every failure with the error envelope schema,
 * and a control client wired to the same app.
 */
import { type ErrorEnvelope, ErrorEnvelopeSchema } from '@esim-embed/shared';
import { expect } from 'vitest';
import type { z } from 'zod';
import { createSandbox, type Sandbox } from '../src/app';
import { createManualClock } from '../src/clock';
import { type ControlClient, createControlClient } from '../src/control-client';
import type { SandboxOptionsInput } from '../src/options';
import { SANDBOX_KEYS } from '../src/seed/accounts';

type Fetcher = (path: string, init: RequestInit) => Promise<Response>;

/** Options of one call. */
export interface CallOptions {
  body?: unknown;
  /** Raw body text (sent as is, for malformed-JSON tests). */
  rawBody?: string;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  /** Overrides the caller's API key; null sends none. */
  apiKey?: string | null;
}

/** A raw answer. */
export interface CallResult {
  status: number;
  headers: Headers;
  json: unknown;
}

/** Calls the sandbox as one API key and checks every body against the strict schemas. */
export class SandboxCaller {
  readonly #fetch: Fetcher;
  readonly apiKey: string;

  constructor(fetcher: Fetcher, apiKey: string) {
    this.#fetch = fetcher;
    this.apiKey = apiKey;
  }

  /** The same sandbox as another key. */
  as(apiKey: string): SandboxCaller {
    return new SandboxCaller(this.#fetch, apiKey);
  }

  /** Any request; links may be absolute (only path and query are used). */
  async call(method: string, pathOrUrl: string, options: CallOptions = {}): Promise<CallResult> {
    const path = pathOrUrl.startsWith('http')
      ? `${new URL(pathOrUrl).pathname}${new URL(pathOrUrl).search}`
      : pathOrUrl;
    const headers: Record<string, string> = { ...options.headers };
    const key = options.apiKey === undefined ? this.apiKey : options.apiKey;
    if (key !== null) headers['X-Api-Key'] = key;
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await this.#fetch(path, { method, headers, body });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      json: text ? (JSON.parse(text) as unknown) : null,
    };
  }

  /** A successful read, parsed with `schema`. */
  async get<T extends z.ZodType>(path: string, schema: T, options?: CallOptions): Promise<z.output<T>> {
    const result = await this.call('GET', path, options);
    return this.#success(result, 200, schema);
  }

  /** A successful create (201, or the status given), parsed with `schema`; a fresh idempotency key by default. */
  async create<T extends z.ZodType>(
    path: string,
    body: unknown,
    schema: T,
    options: CallOptions & { status?: number } = {},
  ): Promise<z.output<T>> {
    const result = await this.call('POST', path, {
      idempotencyKey: crypto.randomUUID(),
      ...options,
      body,
    });
    return this.#success(result, options.status ?? 201, schema);
  }

  /** A failed call: the envelope, its status and headers. */
  async fail(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<{
    status: number;
    headers: Headers;
    error: ErrorEnvelope['error'];
    meta: ErrorEnvelope['meta'];
  }> {
    const result = await this.call(method, path, options);
    if (result.status < 400) throw new Error(`expected ${method} ${path} to fail, got ${result.status}`);
    const envelope = ErrorEnvelopeSchema.parse(result.json);
    return { status: result.status, headers: result.headers, ...envelope };
  }

  #success<T extends z.ZodType>(result: CallResult, status: number, schema: T): z.output<T> {
    if (result.status !== status) {
      throw new Error(`expected ${status}, got ${result.status}: ${JSON.stringify(result.json)}`);
    }
    return schema.parse(result.json);
  }
}

/** Zero step delays: an order completes on its next read. */
export const INSTANT_STEPS = { provisioning: 0, delivery: 0, completion: 0 } as const;

/** An in-process sandbox for one test file. */
export interface Harness extends Sandbox {
  api: SandboxCaller;
  control: ControlClient;
  clock: ReturnType<typeof createManualClock>;
}

/** Builds an in-process sandbox (manual clock, instant steps unless overridden) with callers. */
export function createHarness(options: SandboxOptionsInput = {}): Harness {
  const clock = createManualClock();
  const sandbox = createSandbox({ clock: clock.clock, stepDelaysMs: INSTANT_STEPS, ...options });
  const fetcher: Fetcher = async (path, init) => sandbox.app.request(path, init);
  return {
    ...sandbox,
    clock,
    api: new SandboxCaller(fetcher, SANDBOX_KEYS.globetrotter),
    control: createControlClient({
      baseUrl: 'http://localhost',
      secret: sandbox.state.options.controlSecret,
      fetch: (input, init) => Promise.resolve(sandbox.app.request(String(input), init)),
    }),
  };
}

/** A caller over real HTTP. */
export function httpCaller(baseUrl: string, apiKey: string = SANDBOX_KEYS.globetrotter): SandboxCaller {
  return new SandboxCaller((path, init) => fetch(`${baseUrl}${path}`, init), apiKey);
}

/** Asserts the envelope code and status of a failure. */
export function expectError(
  failure: { status: number; error: ErrorEnvelope['error'] },
  code: ErrorEnvelope['error']['code'],
  status: number,
): void {
  expect({ code: failure.error.code, status: failure.status }).toEqual({ code, status });
}
