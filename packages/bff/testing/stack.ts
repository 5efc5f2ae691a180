/**
 * @module
 * Test support: the real sandbox over HTTP on a free port and a BFF in front of it on another free port,
 * with its log lines captured, and a small client that speaks to the BFF as a widget page would.
 */
import { randomBytes } from 'node:crypto';
import {
  type RunningSandbox,
  SANDBOX_KEYS,
  SandboxClock,
  type StartSandboxOptions,
  startSandbox,
  systemClock,
} from '@esim-embed/sandbox';
import type { Session } from '@esim-embed/shared';
import { type Bff, type CreateBffOptions, createBff } from '../src/bff';
import type { BffConfigInput } from '../src/config/config-schema';
import {
  parseConfig,
  resolveConsoleSsoSecret,
  resolveOperationsToken,
  resolveSecrets,
  resolveSmtpUrl,
} from '../src/config/load-config';
import { createLogger } from '../src/logger';
import { type RunningOperations, type RunningServer, serveBff, serveOperations } from '../src/node-server';
import type { Store } from '../src/store/store';

/** The origins of the test widgets. */
export const SHOP_ORIGIN = 'https://shop.example';
export const PARTNER_SECRET = `partner-secret-${randomBytes(12).toString('hex')}`;

/** Env of the test config: the sandbox's key and the partner secret. */
export const TEST_ENV = {
  TEST_UPSTREAM_KEY: SANDBOX_KEYS.globetrotter,
  TEST_RUB_UPSTREAM_KEY: SANDBOX_KEYS.aurora,
  TEST_PARTNER_SECRET: PARTNER_SECRET,
};

/** An upstream that takes every request and answers none within a test: no timeout or retry ends the wait first. */
export const UNANSWERED_UPSTREAM = { timeoutMs: 60_000, maxRetries: 0 } as const;

type UpstreamInput = BffConfigInput['widgets'][number]['upstream'];

/** `config` with every widget's upstream settings changed by `upstream` (another address, other timeouts). */
export function withUpstream(config: BffConfigInput, upstream: Partial<UpstreamInput>): BffConfigInput {
  return {
    ...config,
    widgets: config.widgets.map((widget) => ({ ...widget, upstream: { ...widget.upstream, ...upstream } })),
  };
}

/**
 * A config with a `direct` widget (`shop`) and a `partner_confirm` widget (`shop-pay`) on the sandbox. Tests buy
 * many times a minute from one loopback address on keys the sandbox does not limit: the upstream budget gives
 * them a large key and whole-key shares per address and session (the budget's own tests set `upstreamBudget: {}`).
 */
export function testConfig(sandboxUrl: string, overrides: Partial<BffConfigInput> = {}): BffConfigInput {
  const upstream = {
    baseUrl: sandboxUrl,
    apiKeyEnv: 'TEST_UPSTREAM_KEY',
    timeoutMs: 2_000,
    maxRetries: 2,
    rateLimitPerMinute: 100_000,
  };
  return {
    statusCacheMs: 0,
    upstreamBudget: { addressPercent: 100, sessionPercent: 100 },
    widgets: [
      {
        id: 'shop',
        displayName: 'Test Shop',
        environment: 'test',
        upstream,
        allowedOrigins: [SHOP_ORIGIN, 'https://*.shop.example'],
        checkoutMode: 'direct',
        partnerSecretEnv: 'TEST_PARTNER_SECRET',
      },
      {
        id: 'shop-pay',
        displayName: 'Test Shop',
        environment: 'test',
        upstream,
        allowedOrigins: [SHOP_ORIGIN],
        checkoutMode: 'partner_confirm',
        partnerSecretEnv: 'TEST_PARTNER_SECRET',
      },
      {
        id: 'shop-rub',
        displayName: 'Тест',
        environment: 'test',
        upstream: { ...upstream, apiKeyEnv: 'TEST_RUB_UPSTREAM_KEY' },
        allowedOrigins: ['https://rub.example'],
        checkoutMode: 'direct',
        pricing: { kind: 'markup', percent: 30, rounding: 'ninety_nine' },
        defaultLocale: 'ru',
      },
    ],
    ...overrides,
  };
}

export interface Stack {
  sandbox: RunningSandbox;
  /** The BFF's session-signing secret (to forge tokens in tests). */
  sessionSecret: Buffer;
  bff: Bff;
  server: RunningServer;
  /** The operations listener (`/metrics`), when the BFF was asked for metrics. */
  operations: RunningOperations | null;
  /** Every log line the BFF wrote. */
  logs: string[];
  close(): Promise<void>;
}

export interface StackOptions {
  sandbox?: StartSandboxOptions;
  config?: (sandboxUrl: string) => BffConfigInput;
  /** How long one second of the server's timeouts lasts (default 1,000 ms): tests of slow clients shorten it. */
  serverSecondMs?: number;
  store?: Store;
  /** Where the BFF finds the widget's builds (a folder of versions, one build) and the static site. */
  widgetRoot?: string | null;
  widgetDist?: string | null;
  siteRoot?: string | null;
  /** The console page's build, served at `/console/` when the config enables the console. */
  consoleDist?: string | null;
  /** Extra secrets for the config's env variables. */
  env?: Record<string, string>;
  /** The BFF's port (default: a free one). */
  port?: number;
  /** Clocks, timers and worker settings of the BFF (after-sale and webhook tests). */
  bffOptions?: Pick<
    CreateBffOptions,
    | 'webhooks'
    | 'mail'
    | 'now'
    | 'watchIntervalMs'
    | 'upstreamSleep'
    | 'startWorkers'
    | 'publicOrigin'
    | 'observability'
    | 'logoTestHost'
    | 'stopWaitMs'
    | 'privacyErasureStep'
  >;
}

/** A BFF on a free port. */
export interface RunningBff {
  bff: Bff;
  server: RunningServer;
  /** The operations listener on a free loopback port, when the BFF keeps metrics (closed with `server`). */
  operations: RunningOperations | null;
  logs: string[];
}

/** Start one BFF against a running sandbox (several may share a store and a session secret). */
export async function startBff(
  sandboxUrl: string,
  options: Omit<StackOptions, 'sandbox'> & {
    sessionSecret: Buffer;
    /** Root secrets rotated out, newest first (`ESIM_BFF_PREVIOUS_SESSION_SECRETS`). */
    previousSessionSecrets?: Buffer[];
  },
): Promise<RunningBff> {
  const logs: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => logs.push(line) });
  const config = parseConfig((options.config ?? testConfig)(sandboxUrl), 'test config');
  const bff = createBff({
    loaded: {
      config,
      secrets: resolveSecrets(config, { ...TEST_ENV, ...options.env }),
      sessionSecret: options.sessionSecret,
      previousSessionSecrets: options.previousSessionSecrets,
      operationsToken: resolveOperationsToken(config, { ...TEST_ENV, ...options.env }),
      smtpUrl: resolveSmtpUrl(config, { ...TEST_ENV, ...options.env }),
      consoleSsoSecret: resolveConsoleSsoSecret(config, { ...TEST_ENV, ...options.env }),
      source: 'test',
    },
    logger,
    store: options.store,
    widgetRoot: options.widgetRoot,
    widgetDist: options.widgetDist,
    siteRoot: options.siteRoot,
    consoleDist: options.consoleDist,
    ...options.bffOptions,
  });
  const publicServer = await serveBff(bff, {
    port: options.port,
    limits: { ...config.server, trustedProxyHops: config.trustedProxyHops, secondMs: options.serverSecondMs },
  });
  const operations = bff.operationsApp === null ? null : await serveOperations(bff.operationsApp);
  const server: RunningServer = {
    ...publicServer,
    async close() {
      await operations?.close();
      await publicServer.close();
    },
  };
  return { bff, server, operations, logs };
}

/** Start the sandbox and a BFF in front of it. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 300,
    ...options.sandbox,
  });
  const sessionSecret = randomBytes(32);
  const { bff, server, operations, logs } = await startBff(sandbox.url, { ...options, sessionSecret });
  return {
    sandbox,
    sessionSecret,
    bff,
    server,
    operations,
    logs,
    async close() {
      await server.close();
      await sandbox.close();
    },
  };
}

/** An answer of the BFF: status, headers and the parsed JSON body (undefined when not JSON). */
// biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and check them with the shared schemas
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A request to the BFF. */
export async function call(
  baseUrl: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, body: json, text };
}

/** A widget page: a session for one widget from one origin, and calls with its token. */
export interface WidgetPage {
  token: string;
  session: Session;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
}

/**
 * Open a session as a page on `origin` would, and return a client bound to it; `headers` go with every call
 * (an `X-Forwarded-For` to speak from another address behind `trustedProxyHops`).
 */
export async function openWidget(
  baseUrl: string,
  widgetId: string,
  origin = SHOP_ORIGIN,
  headers: Record<string, string> = {},
): Promise<WidgetPage> {
  const open = () =>
    call(baseUrl, '/v1/sessions', {
      method: 'POST',
      headers: { ...headers, Origin: origin },
      body: { widgetId },
    });
  let answer = await open();
  // As the widget does: a store that did not answer in time (503 `store_unavailable`, on a busy machine) is asked
  // again a moment later; any other refusal is the test's to see.
  for (
    let retry = 0;
    retry < 3 && answer.status === 503 && answer.body?.error?.code === 'store_unavailable';
    retry += 1
  ) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    answer = await open();
  }
  if (answer.status !== 201) throw new Error(`session refused: ${answer.status} ${answer.text}`);
  const token: string = answer.body.data.token;
  const auth = { ...headers, Origin: origin, Authorization: `Bearer ${token}` };
  return {
    token,
    session: answer.body.data,
    get: (path, headers = {}) => call(baseUrl, path, { headers: { ...auth, ...headers } }),
    post: (path, body, headers = {}) =>
      call(baseUrl, path, { method: 'POST', headers: { ...auth, ...headers }, body }),
  };
}

let keyCounter = 0;
/** A fresh idempotency key. */
export function newKey(): string {
  keyCounter += 1;
  return `test-${Date.now()}-${keyCounter}-${randomBytes(4).toString('hex')}`;
}

/**
 * Wait for the next minute of the clock when less than 10 s of this one are left: for tests of what is counted per
 * minute of the clock (the upstream budget, the sandbox's key limit), so that a burst falls inside one minute.
 */
export async function awayFromTheMinuteEnd(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** Wait until `check` returns a value (polling), or fail after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A clock a test moves forward: the wall clock plus what the test added. */
export interface TestClock {
  /** Milliseconds since the epoch, as the code under test reads them (give it as `bffOptions.now`). */
  now(): number;
  /** Moves the clock forward by `ms` at once: leases, pauses and windows run out without real waiting. */
  advance(ms: number): void;
}

/**
 * A {@link TestClock}: it runs with the wall clock (timers, heartbeats and the sandbox stay in step) and jumps
 * forward when the test says, never back — the sandbox's own clock, on the BFF's side.
 */
export function testClock(): TestClock {
  const clock = new SandboxClock(systemClock);
  return { now: () => clock.now(), advance: (ms) => clock.advance(ms) };
}
