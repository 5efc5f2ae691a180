/**
 * @module
 * The widget's one way to the BFF (`/v1/*`). It starts the widget (public config and catalog address, no
 * session), reads the public catalog, opens the session when a call first needs one (the quote, a resumed
 * checkout, "my eSIM"), sends the bearer token, client secret and idempotency keys, retries what is safe to retry (network loss with backoff; an expired session once,
 * with a new session; "not yet" answers after their `Retry-After`), aborts everything when the element
 * disconnects, and reads every answer with the shared API schemas.
 *
 * Parsing: the shared schemas are zod classic, which does not tree-shake far: parsing every response would
 * take the first screen far over its size budget (`scripts/check-size.mjs`). Production builds check only the
 * envelope (`data`, `error.code`): a production BFF does not check its answers either. In development and in
 * tests both sides do: the BFF checks every success answer against its route's response schema (these same
 * shared schemas) before sending it, and the widget (`import.meta.env.DEV`) fully parses every response, so a
 * drift between the BFF, the test fakes and the schemas fails loudly.
 *
 * Over 300 lines: one method per BFF route, all over the one request path and its retries.
 */

import {
  type ApiErrorEnvelope,
  ApiErrorEnvelopeSchema,
  type Checkout,
  CheckoutResponseSchema,
  type CreateCheckoutRequest,
  type CreatedCheckout,
  CreatedCheckoutResponseSchema,
  type Destination,
  DestinationsResponseSchema,
  type EsimInstallationView,
  EsimInstallationViewResponseSchema,
  type EsimView,
  EsimViewResponseSchema,
  type Installation,
  InstallationResponseSchema,
  type Locale,
  type ManageLink,
  ManageLinkResponseSchema,
  type Plan,
  PlansResponseSchema,
  type Quote,
  QuoteResponseSchema,
  type Session,
  SessionResponseSchema,
  type WidgetDeliveryLink,
  WidgetDeliveryLinkResponseSchema,
  type WidgetStart,
  WidgetStartResponseSchema,
} from '@esim-embed/shared';
import { WidgetApiError } from './api-error';

/**
 * The response schema of each call. Referenced only under `import.meta.env.DEV`, so a production build
 * drops them, and zod with them.
 */
const RESPONSE_SCHEMAS = {
  start: WidgetStartResponseSchema,
  session: SessionResponseSchema,
  destinations: DestinationsResponseSchema,
  plans: PlansResponseSchema,
  quote: QuoteResponseSchema,
  createdCheckout: CreatedCheckoutResponseSchema,
  checkout: CheckoutResponseSchema,
  installation: InstallationResponseSchema,
  deliveryLink: WidgetDeliveryLinkResponseSchema,
  manageLink: ManageLinkResponseSchema,
  esimView: EsimViewResponseSchema,
  esimInstallation: EsimInstallationViewResponseSchema,
};

/** A kind of response. */
type ResponseKind = keyof typeof RESPONSE_SCHEMAS;
/** The body of a kind of response, as its shared schema parses it. */
type ResponseBody<K extends ResponseKind> = ReturnType<(typeof RESPONSE_SCHEMAS)[K]['parse']>;

/** What the client needs to reach the BFF. */
export interface ApiClientOptions {
  apiBase: string;
  widgetId: string;
  /** The `fetch` to use (tests pass a fake BFF). */
  fetch?: typeof fetch;
  /** How long to wait between attempts after a network failure, in ms; one entry per retry. */
  networkRetryDelays?: readonly number[];
  /**
   * How long one request may keep being repeated after "not yet" answers (a create still running elsewhere,
   * the BFF's store briefly down), in ms, `Retry-After` honoured in between.
   */
  notYetBudgetMs?: number;
}

const DEFAULTS = {
  networkRetryDelays: [500, 1500, 4000],
  notYetBudgetMs: 30_000,
} satisfies Partial<ApiClientOptions>;

/** The pause before repeating a "not yet" answer without a usable `Retry-After`, and the shortest one. */
const NOT_YET_DELAY_MS = 1000;
const MIN_NOT_YET_DELAY_MS = 250;

/**
 * Whether an error says "the same request will work a moment later": the first request with this idempotency
 * key is still running (its answer will be replayed), or the BFF's store is briefly unavailable. Repeating
 * them is safe: every create carries its idempotency key, and the rest are reads or idempotent by nature.
 */
function notYet(error: unknown): boolean {
  if (!(error instanceof WidgetApiError)) return false;
  return (
    error.code === 'store_unavailable' ||
    (error.code === 'idempotency_conflict' && error.params.reason === 'in_progress')
  );
}

interface RequestOptions<K extends ResponseKind> {
  method?: 'GET' | 'POST';
  body?: unknown;
  secret?: string;
  /** The manage token that opens one eSIM (its own view, its top-ups). */
  manageToken?: string;
  idempotencyKey?: string;
  response: K;
}

/** A top-up of an existing eSIM: which one, and the manage token that proves the traveller holds it. */
export interface TopUpTarget {
  esimId: string;
  manageToken: string;
}

/** A client for one widget on one BFF; `close()` aborts all its requests. */
export class ApiClient {
  readonly #options: Required<Omit<ApiClientOptions, 'fetch'>> & { fetch: typeof fetch };
  readonly #abort = new AbortController();
  #start: Promise<WidgetStart> | undefined;
  #session: Promise<Session> | undefined;
  /** Catalog reads started ahead of the step that shows them, by locale; each is taken once. */
  readonly #destinationsAhead = new Map<Locale, Promise<Destination[]>>();

  constructor(options: ApiClientOptions) {
    const merged = { ...DEFAULTS, ...options } satisfies ApiClientOptions;
    this.#options = {
      ...merged,
      apiBase: merged.apiBase.replace(/\/+$/, ''),
      fetch: merged.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    };
  }

  /** Aborts every request in flight and refuses new ones. */
  close(): void {
    this.#abort.abort();
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#abort.signal.aborted;
  }

  /** The widget's public config and catalog address: no session (asked once, again after a failure). */
  start(): Promise<WidgetStart> {
    this.#start ??= this.#send(`/v1/widgets/${encodeURIComponent(this.#options.widgetId)}/start`, {
      response: 'start',
    })
      .then((body) => body.data)
      .catch((error: unknown) => {
        this.#start = undefined;
        throw error;
      });
    return this.#start;
  }

  /** The session, opened by the first call that needs it (once; reopened after it is found invalid). */
  session(): Promise<Session> {
    this.#session ??= this.#send('/v1/sessions', {
      method: 'POST',
      body: { widgetId: this.#options.widgetId },
      response: 'session',
    })
      .then((body) => body.data)
      .catch((error: unknown) => {
        this.#session = undefined;
        throw error;
      });
    return this.#session;
  }

  /** Countries and regions, localized (the read started ahead by `prefetchDestinations`, if there is one). */
  async destinations(locale: Locale): Promise<Destination[]> {
    const ahead = this.#destinationsAhead.get(locale);
    if (ahead) {
      this.#destinationsAhead.delete(locale);
      return ahead;
    }
    return (await this.#catalog(`/${locale}/destinations`, 'destinations')).data;
  }

  /** Starts reading the destinations now, for the next `destinations(locale)`: the list comes sooner. */
  prefetchDestinations(locale: Locale): void {
    if (this.#destinationsAhead.has(locale)) return;
    const read = this.destinations(locale);
    // Its failure, if any, reaches the step that takes the read.
    read.catch(() => undefined);
    this.#destinationsAhead.set(locale, read);
  }

  /** The plans of one destination, and the destination itself. */
  async plans(code: string, locale: Locale): Promise<{ plans: Plan[]; destination: Destination }> {
    const body = await this.#catalog(`/${locale}/plans/${encodeURIComponent(code)}`, 'plans');
    return { plans: body.data, destination: body.meta.destination };
  }

  /**
   * A read of the public, versioned catalog the start names: no token, so any cache on the way may answer it.
   * A catalog refresh since the start (which may be a minute old) makes that version `not_found`, naming the
   * current one's address: the read is repeated there, and later reads go there too.
   */
  async #catalog<K extends 'destinations' | 'plans'>(path: string, response: K): Promise<ResponseBody<K>> {
    const { catalog } = await this.start();
    return this.#send(catalog.path + path, { response }).catch((error: Partial<WidgetApiError>) => {
      // Only that `not_found` names a path.
      const moved = error.params?.path;
      if (typeof moved !== 'string') throw error;
      catalog.path = moved;
      return this.#send(moved + path, { response });
    });
  }

  /** Holds a plan's price; with `topUp`, the price of a top-up of that eSIM. */
  async createQuote(
    offerId: string,
    locale: Locale,
    idempotencyKey: string,
    topUp?: TopUpTarget,
  ): Promise<Quote> {
    const body = { offerId, locale, ...(topUp ? { esimId: topUp.esimId } : {}) };
    const request = { method: 'POST', body, idempotencyKey, response: 'quote' } as const;
    return (await this.#call('/v1/quotes', { ...request, manageToken: topUp?.manageToken })).data;
  }

  /**
   * Creates the checkout; the key is derived from the quote so that a double click makes one checkout.
   * A top-up's checkout carries the eSIM's manage token.
   */
  async createCheckout(
    request: CreateCheckoutRequest,
    idempotencyKey: string,
    manageToken?: string,
  ): Promise<CreatedCheckout> {
    const body = await this.#call('/v1/checkouts', {
      method: 'POST',
      body: request,
      idempotencyKey,
      manageToken,
      response: 'createdCheckout',
    });
    return body.data;
  }

  /** A checkout's status. */
  async checkout(id: string, secret: string): Promise<Checkout> {
    return (await this.#call(`/v1/checkouts/${encodeURIComponent(id)}`, { secret, response: 'checkout' }))
      .data;
  }

  /** Cancels a checkout that awaits payment (the traveller abandons it); cancelling twice is fine. */
  async cancelCheckout(id: string, secret: string): Promise<Checkout> {
    const path = `/v1/checkouts/${encodeURIComponent(id)}/cancel`;
    return (await this.#call(path, { method: 'POST', secret, response: 'checkout' })).data;
  }

  /** The installation data of a ready checkout. */
  async installation(id: string, secret: string): Promise<Installation> {
    const body = await this.#call(`/v1/checkouts/${encodeURIComponent(id)}/installation`, {
      secret,
      response: 'installation',
    });
    return body.data;
  }

  /** A link that opens the installation on another device. */
  async createDeliveryLink(id: string, secret: string, idempotencyKey: string): Promise<WidgetDeliveryLink> {
    const body = await this.#call(`/v1/checkouts/${encodeURIComponent(id)}/delivery-links`, {
      method: 'POST',
      body: {},
      secret,
      idempotencyKey,
      response: 'deliveryLink',
    });
    return body.data;
  }

  /** A manage link for a ready purchase: the token that opens the eSIM's own view later (one per checkout). */
  async createManageLink(id: string, secret: string): Promise<ManageLink> {
    const body = await this.#call(`/v1/checkouts/${encodeURIComponent(id)}/manage-link`, {
      method: 'POST',
      body: {},
      secret,
      idempotencyKey: `manage-${id}`,
      response: 'manageLink',
    });
    return body.data;
  }

  /** "My eSIM": plan, usage, dates, top-up and actions of the eSIM the manage token opens. */
  async myEsim(manageToken: string, locale: Locale): Promise<EsimView> {
    return (await this.#call(`/v1/my-esim?locale=${locale}`, { manageToken, response: 'esimView' })).data;
  }

  /** The installation data of the eSIM the manage token opens, while it is not installed. */
  async myEsimInstallation(manageToken: string): Promise<EsimInstallationView> {
    const body = await this.#call('/v1/my-esim/installation', { manageToken, response: 'esimInstallation' });
    return body.data;
  }

  /** A call with the session token; an invalid session is replaced once and the call repeated. */
  async #call<K extends ResponseKind>(path: string, request: RequestOptions<K>): Promise<ResponseBody<K>> {
    const session = await this.session();
    try {
      return await this.#send(path, request, session.token);
    } catch (error) {
      if (!(error instanceof WidgetApiError) || error.code !== 'widget_session_invalid') throw error;
      // Forgotten unless another call has already opened a new one.
      if ((await this.#session?.catch(() => null)) === session) this.#session = undefined;
      const renewed = await this.session();
      return this.#send(path, request, renewed.token);
    }
  }

  /**
   * One request, repeated after network failures and "not yet" answers (every create carries an idempotency
   * key, so that is safe).
   */
  async #send<K extends ResponseKind>(
    path: string,
    request: RequestOptions<K>,
    token?: string,
  ): Promise<ResponseBody<K>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    if (request.secret) headers['X-Checkout-Secret'] = request.secret;
    // The shared MANAGE_TOKEN_HEADER, written out: importing it would pull the after-sale schemas into production.
    if (request.manageToken) headers['X-Manage-Token'] = request.manageToken;
    if (request.idempotencyKey) headers['Idempotency-Key'] = request.idempotencyKey;
    const init: RequestInit = {
      method: request.method ?? 'GET',
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: this.#abort.signal,
      credentials: 'omit',
      // Installation data and checkout status must never sit in a cache; the catalog may be revalidated
      // with its ETag by the browser's own cache.
      cache: request.secret || request.manageToken ? 'no-store' : 'default',
    };
    const delays = this.#options.networkRetryDelays;
    const giveUpAt = Date.now() + this.#options.notYetBudgetMs;
    for (let networkFailures = 0; ; ) {
      let response: Response;
      try {
        response = await this.#options.fetch(`${this.#options.apiBase}${path}`, init);
      } catch (cause) {
        if (this.closed) throw cause;
        const delay = delays[networkFailures++];
        if (delay === undefined) throw new WidgetApiError('network_error', {}, null, { cause });
        await this.#wait(delay);
        continue;
      }
      try {
        return await this.#read(response, request.response);
      } catch (error) {
        if (!notYet(error)) throw error;
        const seconds = Number(response.headers.get('Retry-After') ?? Number.NaN);
        const delay = seconds >= 0 ? Math.max(MIN_NOT_YET_DELAY_MS, seconds * 1000) : NOT_YET_DELAY_MS;
        if (Date.now() + delay > giveUpAt) throw error;
        await this.#wait(delay);
      }
    }
  }

  async #read<K extends ResponseKind>(response: Response, kind: K): Promise<ResponseBody<K>> {
    let body: unknown;
    try {
      body = await response.json();
    } catch (cause) {
      if (this.closed) throw cause;
      throw new WidgetApiError('invalid_response', { status: response.status }, null, { cause });
    }
    if (!response.ok) {
      const envelope = import.meta.env.DEV
        ? ApiErrorEnvelopeSchema.safeParse(body).data
        : (body as Partial<ApiErrorEnvelope> | null);
      if (!envelope?.error?.code) throw new WidgetApiError('invalid_response', { status: response.status });
      throw new WidgetApiError(
        envelope.error.code,
        envelope.error.params ?? {},
        envelope.meta?.requestId ?? null,
      );
    }
    if (import.meta.env.DEV) {
      const parsed = RESPONSE_SCHEMAS[kind].safeParse(body);
      if (!parsed.success) throw new WidgetApiError('invalid_response', { issues: parsed.error.issues });
      return parsed.data as ResponseBody<K>;
    }
    if ((body as { data?: unknown } | null)?.data === undefined) {
      throw new WidgetApiError('invalid_response', { status: response.status });
    }
    return body as ResponseBody<K>;
  }

  #wait(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      this.#abort.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(this.#abort.signal.reason);
        },
        { once: true },
      );
    });
  }
}

/** A fresh idempotency key for a create that is not tied to an earlier one. */
export function newIdempotencyKey(prefix: string): string {
  // getRandomValues, unlike randomUUID, also works on a plain-HTTP partner page.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `${prefix}-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
