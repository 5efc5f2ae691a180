/**
 * @module
 * The widget's one way to the BFF (`/v1/*`). It starts the widget (public config and catalog address, no
 * session), reads the public catalog, opens the session when a call first needs one (the quote, a resumed
 * checkout, "my eSIM"), sends the bearer token, client secret and idempotency keys, retries what is safe to retry (network loss with backoff; an expired session once,
 * with a new session; "not yet" answers after their `Retry-After`), aborts everything when the element
 * disconnects, and reads every answer with the shared API schemas.
 *
 * Routes: each call names its route of the API's one description (`apiRoutes.readCheckout` of
 * `@esim-embed/shared`): the method and path template come from there, and so do the types of its parameters,
 * body, credentials and answer. Production code reads them as `apiRoutes.readCheckout.method` and `.path` at the
 * call, never through a variable or an argument that holds the route: so a build keeps those two strings of each
 * route it calls (inlined) and none of its schemas, where a route held as a value would bring them, and zod.
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
  API_ROUTES,
  type ApiErrorEnvelope,
  ApiErrorEnvelopeSchema,
  type ApiRoute,
  apiRoutes,
  type Checkout,
  type CreateCheckoutRequest,
  type CreatedCheckout,
  type Destination,
  type EsimInstallationView,
  type EsimView,
  fillPath,
  type Installation,
  type Locale,
  type ManageLink,
  type Plan,
  type Quote,
  type RouteBody,
  type RouteMethod,
  type RouteParams,
  type RouteResponse,
  type RouteSpec,
  retryAfterSecondsOf,
  type Session,
  type WidgetDeliveryLink,
  type WidgetStart,
} from '@esim-embed/shared';
import { retryWorth, WidgetApiError } from './api-error';

/** The routes a client of the widget API calls among `Routes` (by default the API's): JSON answers, no partner's. */
export type ClientRoute<Routes extends RouteSpec = ApiRoute> = Exclude<
  Extract<Routes, { response: object }>,
  { auth: 'partner' }
>;

/** The described route at `method` and path template `Path`. */
export type ClientRouteAt<
  Method extends RouteMethod,
  Path extends string,
  Routes extends RouteSpec = ApiRoute,
> = Extract<ClientRoute<Routes>, { method: Method; path: Path }>;

/** What a call of a route takes: its path parameters and body where it has them, and the credentials to send. */
export type ClientRequest<Route extends RouteSpec> = ([keyof RouteParams<Route>] extends [never]
  ? { params?: undefined }
  : { params: RouteParams<Route> }) &
  ([RouteBody<Route>] extends [never] ? { body?: undefined } : { body: RouteBody<Route> }) &
  (Route extends { auth: 'session+secret' } ? { secret: string } : { secret?: undefined }) &
  (Route extends { auth: 'session+manage' }
    ? { manageToken: string }
    : { manageToken?: string | undefined }) & {
    /** The search part (`?locale=en`), already encoded. */
    search?: string;
    idempotencyKey?: string;
  };

/** A request as the client sends it, whichever route it is for. */
interface SentRequest {
  params?: Record<string, string> | undefined;
  body?: unknown;
  search?: string | undefined;
  secret?: string | undefined;
  manageToken?: string | undefined;
  idempotencyKey?: string | undefined;
}

/** What the route at `method` and `Path` answers (`{ data, meta }`), as its schema parses it. */
export type ClientAnswer<
  Method extends RouteMethod,
  Path extends string,
  Routes extends RouteSpec = ApiRoute,
> = RouteResponse<ClientRouteAt<Method, Path, Routes>>;

/** The path of a public catalog read below the catalog's address (`/{locale}/destinations`). */
function belowCatalog(template: string, params: Record<string, string>): string {
  return fillPath(template.slice(template.indexOf('{version}') + '{version}'.length), params);
}

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
  /** Catalog reads started ahead of the step that shows them (`prefetchDestinations`, `prefetchPlans`), each taken once. */
  readonly #ahead = new Map<string, Promise<unknown>>();

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
    this.#start ??= this.#send(apiRoutes.startWidget.method, apiRoutes.startWidget.path, {
      params: { widgetId: this.#options.widgetId },
    } satisfies ClientRequest<typeof apiRoutes.startWidget>)
      .then((body) => body.data)
      .catch((error: unknown) => {
        this.#start = undefined;
        throw error;
      });
    return this.#start;
  }

  /** The session, opened by the first call that needs it (once; reopened after it is found invalid). */
  session(): Promise<Session> {
    this.#session ??= this.#send(apiRoutes.createSession.method, apiRoutes.createSession.path, {
      body: { widgetId: this.#options.widgetId },
    } satisfies ClientRequest<typeof apiRoutes.createSession>)
      .then((body) => body.data)
      .catch((error: unknown) => {
        this.#session = undefined;
        throw error;
      });
    return this.#session;
  }

  /** Countries and regions, localized (the read started ahead by `prefetchDestinations`, if there is one). */
  destinations(locale: Locale): Promise<Destination[]> {
    return this.#readAhead(`destinations ${locale}`, async () => {
      return (await this.#catalog(apiRoutes.publicDestinations.path, { locale })).data;
    });
  }

  /** Starts reading the destinations now, for the next `destinations(locale)`: the list comes sooner. */
  prefetchDestinations(locale: Locale): void {
    this.#startAhead(`destinations ${locale}`, () => this.destinations(locale));
  }

  /** The plans of one destination, and the destination itself (the read started by `prefetchPlans`, if any). */
  plans(code: string, locale: Locale): Promise<{ plans: Plan[]; destination: Destination }> {
    return this.#readAhead(`plans ${code} ${locale}`, async () => {
      const body = await this.#catalog(apiRoutes.publicPlans.path, { locale, code });
      return { plans: body.data, destination: body.meta.destination };
    });
  }

  /**
   * Starts reading a destination's plans now, for the next `plans(code, locale)`: when the first step is that
   * destination's plans, the read goes out beside the step's code, not after it.
   */
  prefetchPlans(code: string, locale: Locale): void {
    this.#startAhead(`plans ${code} ${locale}`, () => this.plans(code, locale));
  }

  /** The read started ahead under `key`, taken (once), or `read` now. */
  #readAhead<T>(key: string, read: () => Promise<T>): Promise<T> {
    const ahead = this.#ahead.get(key);
    if (ahead === undefined) return read();
    this.#ahead.delete(key);
    return ahead as Promise<T>;
  }

  /** Starts `read` under `key` for the next {@link #readAhead} of it; its failure reaches the step that takes it. */
  #startAhead(key: string, read: () => Promise<unknown>): void {
    if (this.#ahead.has(key)) return;
    const started = read();
    started.catch(() => undefined);
    this.#ahead.set(key, started);
  }

  /**
   * A read of the public, versioned catalog the start names: no token, so any cache on the way may answer it.
   * A catalog refresh since the start (which may be a minute old) makes that version `not_found`, naming the
   * current one's address: the read is repeated there, and later reads go there too.
   */
  async #catalog<Path extends ClientRoute['path']>(
    template: Path,
    params: Record<string, string>,
  ): Promise<ClientAnswer<'GET', Path>> {
    const { catalog } = await this.start();
    const below = belowCatalog(template, params);
    return this.#fetch('GET', template, catalog.path + below, {}).catch((error: Partial<WidgetApiError>) => {
      // Only that `not_found` names a path.
      const moved = error.params?.path;
      if (typeof moved !== 'string') throw error;
      catalog.path = moved;
      return this.#fetch('GET', template, moved + below, {});
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
    const request = { body, idempotencyKey, manageToken: topUp?.manageToken };
    return (await this.#call(apiRoutes.createQuote.method, apiRoutes.createQuote.path, request)).data;
  }

  /**
   * Creates the checkout; the key is derived from the quote so that a double click makes one checkout.
   * A top-up's checkout carries the eSIM's manage token. `sessionToken`: the session the create is sent under
   * (the one its quote was held in, kept with the create so that a repeat reaches the same idempotency record,
   * even after a reload), never replaced by another: under another session the key would be free again, so a
   * refused token is thrown (`widget_session_invalid`; the client's next call replaces its session if it was it).
   */
  async createCheckout(
    request: CreateCheckoutRequest,
    idempotencyKey: string,
    manageToken?: string,
    sessionToken?: string,
  ): Promise<CreatedCheckout> {
    const sent = { body: request, idempotencyKey, manageToken };
    return (
      await (sessionToken
        ? this.#send(apiRoutes.createCheckout.method, apiRoutes.createCheckout.path, sent, sessionToken)
        : this.#call(apiRoutes.createCheckout.method, apiRoutes.createCheckout.path, sent))
    ).data;
  }

  /** The BFF this client talks to, as its requests name it (no trailing slash). */
  get apiBase(): string {
    return this.#options.apiBase;
  }

  /** A checkout's status. */
  async checkout(id: string, secret: string): Promise<Checkout> {
    return (
      await this.#call(apiRoutes.readCheckout.method, apiRoutes.readCheckout.path, { params: { id }, secret })
    ).data;
  }

  /** Cancels a checkout that awaits payment (the traveller abandons it); cancelling twice is fine. */
  async cancelCheckout(id: string, secret: string): Promise<Checkout> {
    return (
      await this.#call(apiRoutes.cancelCheckout.method, apiRoutes.cancelCheckout.path, {
        params: { id },
        secret,
      })
    ).data;
  }

  /** The installation data of a ready checkout. */
  async installation(id: string, secret: string): Promise<Installation> {
    return (
      await this.#call(apiRoutes.readInstallation.method, apiRoutes.readInstallation.path, {
        params: { id },
        secret,
      })
    ).data;
  }

  /** A link that opens the installation on another device. */
  async createDeliveryLink(id: string, secret: string, idempotencyKey: string): Promise<WidgetDeliveryLink> {
    const request = { params: { id }, body: {}, secret, idempotencyKey };
    return (await this.#call(apiRoutes.createDeliveryLink.method, apiRoutes.createDeliveryLink.path, request))
      .data;
  }

  /** A manage link for a ready purchase: the token that opens the eSIM's own view later (one per checkout). */
  async createManageLink(id: string, secret: string): Promise<ManageLink> {
    const request = { params: { id }, secret, idempotencyKey: `manage-${id}` };
    return (await this.#call(apiRoutes.createManageLink.method, apiRoutes.createManageLink.path, request))
      .data;
  }

  /** "My eSIM": plan, usage, dates, top-up and actions of the eSIM the manage token opens. */
  async myEsim(manageToken: string, locale: Locale): Promise<EsimView> {
    return (
      await this.#call(apiRoutes.readMyEsim.method, apiRoutes.readMyEsim.path, {
        search: `?locale=${locale}`,
        manageToken,
      })
    ).data;
  }

  /** The installation data of the eSIM the manage token opens, while it is not installed. */
  async myEsimInstallation(manageToken: string): Promise<EsimInstallationView> {
    return (
      await this.#call(apiRoutes.readMyInstallation.method, apiRoutes.readMyInstallation.path, {
        manageToken,
      })
    ).data;
  }

  /** A call with the session token; an invalid session is replaced once and the call repeated. */
  async #call<Method extends RouteMethod, Path extends ClientRoute['path']>(
    method: Method,
    template: Path,
    request: ClientRequest<ClientRouteAt<Method, Path>>,
  ): Promise<ClientAnswer<Method, Path>> {
    const session = await this.session();
    try {
      return await this.#send(method, template, request as SentRequest, session.token);
    } catch (error) {
      if (!(error instanceof WidgetApiError) || error.code !== 'widget_session_invalid') throw error;
      // Forgotten unless another call has already opened a new one.
      if ((await this.#session?.catch(() => null)) === session) this.#session = undefined;
      const renewed = await this.session();
      return this.#send(method, template, request as SentRequest, renewed.token);
    }
  }

  /** One call of a described route (its request typed by the caller), its path filled in from the parameters. */
  #send<Method extends RouteMethod, Path extends ClientRoute['path']>(
    method: Method,
    template: Path,
    request: SentRequest,
    token?: string,
  ): Promise<ClientAnswer<Method, Path>> {
    const path = fillPath(template, request.params ?? {}) + (request.search ?? '');
    return this.#fetch(method, template, path, request, token);
  }

  /**
   * One request, repeated after network failures and "not yet" answers (every create carries an idempotency
   * key, so that is safe).
   */
  async #fetch<Method extends RouteMethod, Path extends ClientRoute['path']>(
    method: Method,
    template: Path,
    path: string,
    request: SentRequest,
    token?: string,
  ): Promise<ClientAnswer<Method, Path>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    if (request.secret) headers['X-Checkout-Secret'] = request.secret;
    // The shared MANAGE_TOKEN_HEADER, written out: importing it would pull the after-sale schemas into production.
    if (request.manageToken) headers['X-Manage-Token'] = request.manageToken;
    if (request.idempotencyKey) headers['Idempotency-Key'] = request.idempotencyKey;
    const init: RequestInit = {
      method,
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
        return (await this.#read(response, method, template)) as ClientAnswer<Method, Path>;
      } catch (error) {
        if (!(error instanceof WidgetApiError) || retryWorth(error) !== 'moment') throw error;
        const seconds = error.retryAfterSeconds;
        const delay = seconds === null ? NOT_YET_DELAY_MS : Math.max(MIN_NOT_YET_DELAY_MS, seconds * 1000);
        if (Date.now() + delay > giveUpAt) throw error;
        await this.#wait(delay);
      }
    }
  }

  /**
   * The answer's body: an error thrown as {@link WidgetApiError}; in development and tests checked against the
   * response schema of the described route (`method`, `template`), elsewhere only for its envelope.
   */
  async #read(response: Response, method: RouteMethod, template: string): Promise<unknown> {
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
        {
          retryAfterSeconds: retryAfterSecondsOf(response.headers.get('Retry-After')),
        },
      );
    }
    if (import.meta.env.DEV) {
      const route = (API_ROUTES as readonly RouteSpec[]).find(
        (described) => described.method === method && described.path === template,
      );
      const parsed = route?.response?.safeParse(body);
      if (!parsed?.success)
        throw new WidgetApiError('invalid_response', { route: template, issues: parsed?.error.issues ?? [] });
      return parsed.data;
    }
    if ((body as { data?: unknown } | null)?.data === undefined) {
      throw new WidgetApiError('invalid_response', { status: response.status });
    }
    return body;
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
