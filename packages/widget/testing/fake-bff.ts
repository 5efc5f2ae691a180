/**
 * @module
 * A fake BFF for component tests: a `fetch` that answers the widget API (`/v1/*`) with bodies shaped by the
 * shared schemas (the API client parses every one of them in tests, so a drift fails loudly), dispatching on the
 * API's one description: a request reaches the answer of the described route its method and path match. The real BFF
 * cannot run inside a DOM test; the browser-level flow against it is the e2e suite's.
 */
import {
  API_ROUTES,
  type ApiErrorCode,
  type ApiRouteId,
  type Checkout,
  type CheckoutStatus,
  type Destination,
  type EsimInstallationView,
  type EsimView,
  LocaleSchema,
  type ManageLink,
  matchPath,
  type Plan,
  type Quote,
  type Session,
  type WidgetPublicConfig,
  type WidgetStart,
} from '@esim-embed/shared';

const META = { requestId: 'req_test', apiVersion: '2.0.0' } as const;

/** A request to a described route, as an answer reads it. */
interface FakeRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

/** A checkout the fake holds: the checkout, its client secret and how often its status was read. */
interface CheckoutEntry {
  checkout: Checkout;
  secret: string;
  reads: number;
  cancelled?: boolean;
}

/** One recorded request. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | null;
  cache: RequestCache | undefined;
  /** When the request was sent, by the page's clock (`Date.now()`: the test clock's time where it runs). */
  at: number;
}

/** A scripted failure: the next matching request answers this error (or fails at the network level). */
export interface ScriptedFailure {
  method: string;
  path: RegExp;
  code: ApiErrorCode | 'network';
  status?: number;
  params?: Record<string, unknown>;
  /** The `Retry-After` header of the answer, in seconds. */
  retryAfter?: number;
}

/** As the BFF sends them: sorted by name in the locale's collation. */
export const destinations: Destination[] = [
  {
    code: 'DE',
    kind: 'country',
    name: 'Germany',
    flag: '🇩🇪',
    region: 'europe',
    popularity: null,
    fromPrice: { amountMinor: 500, currency: 'USD' },
    fromPriceLabel: '$5.00',
    planCount: 1,
    searchTerms: ['Deutschland', 'Германия', 'DE'],
  },
  {
    code: 'TR',
    kind: 'country',
    name: 'Turkey',
    flag: '🇹🇷',
    region: 'europe',
    popularity: 1,
    fromPrice: { amountMinor: 450, currency: 'USD' },
    fromPriceLabel: '$4.50',
    planCount: 3,
    searchTerms: ['Türkiye', 'Турция', 'TR'],
  },
  {
    code: 'EU',
    kind: 'region',
    name: 'Europe',
    flag: '🇪🇺',
    region: 'europe',
    popularity: 2,
    fromPrice: { amountMinor: 900, currency: 'USD' },
    fromPriceLabel: '$9.00',
    planCount: 1,
    searchTerms: ['Europa', 'Европа'],
  },
];

function plan(offerId: string, overrides: Partial<Plan>): Plan {
  return {
    offerId,
    productId: `prod_${offerId}`,
    title: `Turkey ${offerId}`,
    destination: { code: 'TR', name: 'Turkey', flag: '🇹🇷' },
    kind: 'fixed',
    dataMb: 1024,
    dailyDataMb: null,
    unlimited: false,
    durationDays: 7,
    price: { amountMinor: 450, currency: 'USD' },
    fiveG: 'supported',
    tethering: 'supported',
    topUp: 'guaranteed',
    networks: ['Turkcell', 'Vodafone'],
    networkTypes: ['4G', '5G'],
    activation: { startsAt: 'first_connection', windowDays: 30 },
    ...overrides,
  };
}

export const plans: Plan[] = [
  plan('off_small', {}),
  plan('off_big', {
    dataMb: 10240,
    durationDays: 30,
    price: { amountMinor: 1900, currency: 'USD' },
    fiveG: 'unknown',
  }),
  plan('off_unlimited', {
    kind: 'unlimited',
    dataMb: null,
    unlimited: true,
    durationDays: 5,
    price: { amountMinor: 1500, currency: 'USD' },
    activation: { startsAt: 'purchase', windowDays: null },
  }),
];

/** A top-up offer of Turkey's eSIMs: 1 GB for 30 days at a retail price. */
export const topUpOffer: Plan = plan('off_topup_1gb', {
  title: 'Turkey top-up 1 GB',
  durationDays: 30,
  price: { amountMinor: 300, currency: 'USD' },
});

/** An eSIM's own view: installed, 1 GB plan with 256 MB used (fresh), top-up available with one offer. */
export function esimView(overrides: Partial<EsimView> = {}): EsimView {
  return {
    esimId: 'esim_1',
    iccid: '8990011234567890123',
    state: 'active',
    profileState: 'enabled',
    serviceState: 'active',
    installed: true,
    plan: plans[0] ?? null,
    usage: {
      totalMb: 1024,
      usedMb: 256,
      remainingMb: 768,
      status: 'fresh',
      observedAt: '2026-11-20T10:30:00.000Z',
    },
    activation: {
      activatedAt: '2026-11-18T08:00:00.000Z',
      deadlineAt: '2026-12-18T08:00:00.000Z',
      serviceExpiresAt: '2026-11-25T08:00:00.000Z',
    },
    topUp: { status: 'available', retryable: false, offers: [topUpOffer] },
    // As the sandbox reports a used profile: a refund goes to the service's review over the API; a
    // cancellation is listed as available but has no channel (availability alone makes no request possible).
    actions: [
      { type: 'top_up', availability: 'available', access: 'api' },
      { type: 'cancellation', availability: 'available', access: 'none' },
      { type: 'refund', availability: 'manual_review', access: 'assisted' },
      { type: 'reissue', availability: 'unavailable', access: 'none' },
    ],
    createdAt: '2026-11-18T07:55:00.000Z',
    ...overrides,
  };
}

const installation = {
  iccid: '8990011234567890123',
  lpa: 'LPA:1$smdp.example.com$ACT-CODE-123',
  qrPayload: 'LPA:1$smdp.example.com$ACT-CODE-123',
  smdpAddress: 'smdp.example.com',
  activationCode: 'ACT-CODE-123',
  ios: 'https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=LPA:1$smdp.example.com$ACT-CODE-123',
  android:
    'https://esimsetup.android.com/esim_qrcode_provisioning?carddata=LPA:1$smdp.example.com$ACT-CODE-123',
};

export const defaultConfig: WidgetPublicConfig = {
  widgetId: 'acme',
  environment: 'test',
  checkoutMode: 'direct',
  currency: 'USD',
  wholeRubOnly: false,
  defaultLocale: 'en',
  locales: [...LocaleSchema.options],
  emailRequired: true,
  emailSender: 'upstream',
  consent: 'checkbox',
  deviceCheck: true,
  brand: {
    displayName: 'Acme Travel',
    logoUrl: null,
    primaryColor: '#ffcc00',
    supportEmail: 'help@acme.test',
    supportUrl: 'https://acme.test/help',
    termsUrl: 'https://acme.test/terms',
    privacyUrl: 'https://acme.test/privacy',
  },
};

/** A checkout's statuses when the test names none: issued after one read, ready at the next. */
const DEFAULT_JOURNEY: readonly CheckoutStatus[] = ['provisioning', 'ready'];

/** Options of the fake. */
export interface FakeBffOptions {
  config?: Partial<WidgetPublicConfig>;
  /** Statuses a checkout goes through, one per status read; the last one stays. */
  journey?: CheckoutStatus[];
  /** How long a quote holds, in ms. */
  quoteTtlMs?: number;
  /** Prices of successive quotes (minor units); the plan's price when empty. */
  quotePrices?: number[];
  /**
   * How long after a session ends its token may still read back a checkout its create made (the BFF's
   * `idempotencyTtlHours`; default a day).
   */
  replayGraceMs?: number;
  /** The version of the public catalog that the start names (default `7-0123456789abcdef`). */
  publicCatalogVersion?: string;
}

/** A fake BFF: `fetch` to hand to the widget, the requests it saw, and failures to script. */
export class FakeBff {
  readonly requests: RecordedRequest[] = [];
  readonly failures: ScriptedFailure[] = [];
  readonly config: WidgetPublicConfig;
  readonly #options: FakeBffOptions;
  #sessions = 0;
  readonly #tokens = new Set<string>();
  /** Until when each session's token may read back its checkout's create (the session's `replayUntil`). */
  readonly #replayUntil = new Map<string, number>();
  /** Tokens of sessions ended by {@link endSessions}. */
  readonly #ended = new Set<string>();
  /** The token each checkout's create came under: the BFF keeps a create's answer for that session only. */
  readonly #madeUnder = new Map<string, string>();
  #quotes = 0;
  readonly #quotesById = new Map<string, Quote>();
  readonly #checkouts = new Map<string, CheckoutEntry>();
  /** Checkout ids the traveller cancelled (each once). */
  readonly cancelled = new Set<string>();
  /** eSIM views by the manage token that opens them. */
  readonly esims = new Map<string, EsimView>();
  /** Top-up checkouts that reached `ready`, by checkout id (each counted once). */
  readonly toppedUp = new Set<string>();
  /** Requests that never answer (until aborted), by path pattern. */
  readonly hanging: RegExp[] = [];

  /** The version the public catalog holds now (a test moves it to make the start's one stale). */
  publicCatalogVersion: string;

  /** The statuses a checkout goes through, one per status read (the last one stays). */
  get journey(): readonly CheckoutStatus[] {
    return this.#options.journey ?? DEFAULT_JOURNEY;
  }

  /** The partner reports a declined payment attempt on a checkout (the next status reads count it). */
  declinePayment(checkoutId: string): void {
    const entry = this.#checkouts.get(checkoutId);
    if (!entry) throw new Error(`no checkout ${checkoutId}`);
    entry.checkout = { ...entry.checkout, declinedAttempts: entry.checkout.declinedAttempts + 1 };
  }

  constructor(options: FakeBffOptions = {}) {
    this.#options = options;
    this.config = { ...defaultConfig, ...options.config };
    this.publicCatalogVersion = options.publicCatalogVersion ?? '7-0123456789abcdef';
  }

  /** Makes the next request matching `method` and `path` fail with `code` (and `Retry-After`, if given). */
  failNext(
    method: string,
    path: RegExp,
    code: ScriptedFailure['code'],
    status = 400,
    params = {},
    retryAfter?: number,
  ): void {
    this.failures.push({
      method,
      path,
      code,
      status,
      params,
      ...(retryAfter === undefined ? {} : { retryAfter }),
    });
  }

  /**
   * Ends every session opened so far: their tokens are `widget_session_invalid` from now on (expired), but for what
   * the BFF lets an ended session do until its `replayUntil`: send again a checkout's create it made, and read back
   * that checkout.
   */
  endSessions(): void {
    for (const token of this.#tokens) this.#ended.add(token);
    this.#tokens.clear();
  }

  /** Registers an eSIM that `manageToken` opens. */
  addEsim(manageToken: string, view: EsimView = esimView()): void {
    this.esims.set(manageToken, view);
  }

  /** Requests to one path pattern. */
  requestsTo(method: string, path: RegExp): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method && path.test(request.path));
  }

  /** The `fetch` to install. */
  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    // Header names are case-insensitive; happy-dom's Headers keeps their case, so fold them here.
    const headers = Object.fromEntries(
      [...new Headers(init.headers).entries()].map(([name, value]) => [name.toLowerCase(), value]),
    );
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const signal = init.signal ?? null;
    const path = url.pathname + url.search;
    this.requests.push({ method, path, headers, body, signal, cache: init.cache, at: Date.now() });
    if (signal?.aborted) throw signal.reason;

    if (this.hanging.some((pattern) => pattern.test(path))) {
      return new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    const failure = this.failures.findIndex((entry) => entry.method === method && entry.path.test(path));
    if (failure >= 0) {
      const [scripted] = this.failures.splice(failure, 1);
      if (scripted?.code === 'network') throw new TypeError('Failed to fetch');
      if (scripted) {
        const answer = this.#error(scripted.code, scripted.status ?? 400, scripted.params ?? {});
        if (scripted.retryAfter !== undefined) answer.headers.set('Retry-After', String(scripted.retryAfter));
        return answer;
      }
    }
    return this.#route(method, url, headers, body);
  };

  #json(status: number, body: unknown): Response {
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  }

  #error(code: ApiErrorCode, status: number, params: Record<string, unknown>): Response {
    return this.#json(status, { error: { code, params }, meta: META });
  }

  #authorized(headers: Record<string, string>): boolean {
    return this.#tokens.has(headers.authorization?.replace(/^Bearer /, '') ?? '');
  }

  /** The widget's start as the BFF answers it: public config and the current catalog's address. */
  #start(): WidgetStart {
    return { widget: this.config, catalog: { path: `/v1/catalog/acme/${this.publicCatalogVersion}` } };
  }

  /**
   * Dispatches on the API's description: the route whose method and path template match (`matchPath`), then
   * that route's answer here. A path no described route has is `not_found`; a described route this fake does not
   * serve is `not_found` too.
   */
  #route(method: string, url: URL, headers: Record<string, string>, body: unknown): Response {
    for (const route of API_ROUTES) {
      if (route.method !== method) continue;
      const params = matchPath(route.path, url.pathname);
      if (params === null) continue;
      const answer = this.#answers[route.id];
      if (answer === undefined) break;
      if (route.auth.startsWith('session') && !this.#authorized(headers)) {
        const readBack = route.id === 'createCheckout' ? this.#createReadBack(headers, body) : undefined;
        return readBack ?? this.#error('widget_session_invalid', 401, {});
      }
      return answer({ params, query: url.searchParams, headers, body });
    }
    return this.#error('not_found', 404, {});
  }

  /**
   * A checkout's create sent again under a session that ended, within its grace: the checkout that session's create
   * made, as a replay answers it; nothing for a create it never made (the BFF refuses the ended token).
   */
  #createReadBack(headers: Record<string, string>, body: unknown): Response | undefined {
    const token = headers.authorization?.replace(/^Bearer /, '') ?? '';
    if (!this.#ended.has(token) || (this.#replayUntil.get(token) ?? 0) <= Date.now()) return undefined;
    const id = `chk_${(body as { quoteId?: string }).quoteId}`;
    const entry = this.#checkouts.get(id);
    if (!entry || this.#madeUnder.get(id) !== token) return undefined;
    const answer = this.#json(201, { data: { ...entry.checkout, clientSecret: entry.secret }, meta: META });
    answer.headers.set('Idempotent-Replayed', 'true');
    return answer;
  }

  /** A read of the public catalog at a version the catalog no longer holds names the current one's address. */
  #publicCatalog(params: Record<string, string>, read: () => Response): Response {
    if (params.version === this.publicCatalogVersion) return read();
    return this.#error('not_found', 404, {
      reason: 'catalog_version_gone',
      current: this.publicCatalogVersion,
      path: this.#start().catalog.path,
    });
  }

  #destinations(locale: string): Response {
    return this.#json(200, { data: destinations, meta: { ...META, catalogVersion: 1, locale } });
  }

  #plans(code: string | undefined, locale: string): Response {
    const destination = destinations.find((entry) => entry.code === code);
    if (!destination) return this.#error('destination_not_found', 404, {});
    const data = destination.code === 'TR' ? plans : [];
    return this.#json(200, { data, meta: { ...META, catalogVersion: 1, locale, destination } });
  }

  /** The checkout a request names, with its client secret checked (or the refusal to answer). */
  #checkoutOf(
    request: FakeRequest,
  ): { entry: CheckoutEntry; refusal?: undefined } | { entry?: undefined; refusal: Response } {
    const entry = this.#checkouts.get(request.params.id ?? '');
    if (!entry) return { refusal: this.#error('checkout_not_found', 404, {}) };
    if (request.headers['x-checkout-secret'] !== entry.secret)
      return { refusal: this.#error('forbidden', 403, {}) };
    return { entry };
  }

  /** The answer of each described route this fake serves (the widget's), by route id. */
  readonly #answers: Partial<Record<ApiRouteId, (request: FakeRequest) => Response>> = {
    startWidget: () => this.#json(200, { data: this.#start(), meta: META }),
    createSession: () => {
      this.#sessions++;
      this.#tokens.add(`token-${this.#sessions}`);
      const token = `token-${this.#sessions}`;
      const expiresAt = Date.now() + 900_000;
      const replayUntil = expiresAt + (this.#options.replayGraceMs ?? 86_400_000);
      this.#replayUntil.set(token, replayUntil);
      const session: Session = {
        token,
        expiresAt: new Date(expiresAt).toISOString(),
        replayUntil: new Date(replayUntil).toISOString(),
        ...this.#start(),
      };
      return this.#json(201, { data: session, meta: META });
    },
    listDestinations: ({ query }) => this.#destinations(query.get('locale') ?? 'en'),
    listPlans: ({ params, query }) => this.#plans(params.code, query.get('locale') ?? 'en'),
    publicDestinations: ({ params }) =>
      this.#publicCatalog(params, () => this.#destinations(params.locale ?? 'en')),
    publicPlans: ({ params }) =>
      this.#publicCatalog(params, () => this.#plans(params.code, params.locale ?? 'en')),
    createQuote: ({ headers, body }) => {
      const { offerId, esimId } = body as { offerId: string; esimId?: string };
      const esim = esimId === undefined ? undefined : this.esims.get(headers['x-manage-token'] ?? '');
      if (esimId !== undefined && esim?.esimId !== esimId)
        return this.#error('widget_session_invalid', 401, {});
      const offers = esim ? esim.topUp.offers : plans;
      const chosen = offers.find((entry) => entry.offerId === offerId);
      if (!chosen)
        return this.#error(esim ? 'action_not_available' : 'offer_not_found', esim ? 409 : 404, {});
      const amount = this.#options.quotePrices?.[this.#quotes] ?? chosen.price.amountMinor;
      this.#quotes++;
      const now = Date.now();
      const quote: Quote = {
        id: `quote_${this.#quotes}`,
        offerId,
        ...(esim ? { kind: 'top_up' as const, esimId: esim.esimId } : {}),
        plan: chosen,
        price: { amountMinor: amount, currency: chosen.price.currency },
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + (this.#options.quoteTtlMs ?? 600_000)).toISOString(),
      };
      this.#quotesById.set(quote.id, quote);
      return this.#json(201, { data: quote, meta: META });
    },
    createCheckout: ({ headers, body }) => {
      const request = body as { quoteId: string; email?: string; locale: 'en' };
      const quote = this.#quotesById.get(request.quoteId);
      if (!quote) return this.#error('quote_not_found', 404, {});
      if (quote.kind === 'top_up' && this.esims.get(headers['x-manage-token'] ?? '')?.esimId !== quote.esimId)
        return this.#error('widget_session_invalid', 401, {});
      const id = `chk_${request.quoteId}`;
      const existing = this.#checkouts.get(id);
      if (existing)
        return this.#json(201, { data: { ...existing.checkout, clientSecret: existing.secret }, meta: META });
      const now = new Date().toISOString();
      const checkout: Checkout = {
        id,
        status: this.config.checkoutMode === 'partner_confirm' ? 'awaiting_payment' : 'placing',
        mode: this.config.checkoutMode,
        ...(quote.kind === 'top_up' ? { kind: 'top_up' as const, esimId: quote.esimId ?? null } : {}),
        amount: quote.price,
        plan: quote.plan,
        email: request.email ?? null,
        locale: request.locale,
        failure: null,
        declinedAttempts: 0,
        expiresAt: new Date(Date.now() + 1_800_000).toISOString(),
        createdAt: now,
        updatedAt: now,
      };
      const secret = `secret_${id}_0123456789abcdef`;
      this.#checkouts.set(id, { checkout, secret, reads: 0 });
      this.#madeUnder.set(id, headers.authorization?.replace(/^Bearer /, '') ?? '');
      return this.#json(201, { data: { ...checkout, clientSecret: secret }, meta: META });
    },
    readCheckout: (request) => {
      const { entry, refusal } = this.#checkoutOf(request);
      if (!entry) return refusal;
      if (entry.cancelled) return this.#json(200, { data: entry.checkout, meta: META });
      const journey = this.journey;
      const status = journey[Math.min(entry.reads, journey.length - 1)] ?? 'ready';
      entry.reads++;
      entry.checkout = {
        ...entry.checkout,
        status,
        failure: status === 'failed' ? { code: 'upstream_unavailable', retryable: true } : null,
        // The BFF names an issued eSIM on the checkout as soon as it exists.
        ...(status === 'ready' && entry.checkout.kind !== 'top_up' ? { esimId: 'esim_1' } : {}),
      };
      if (status === 'ready' && entry.checkout.kind === 'top_up') this.toppedUp.add(entry.checkout.id);
      return this.#json(200, { data: entry.checkout, meta: META });
    },
    cancelCheckout: (request) => {
      const { entry, refusal } = this.#checkoutOf(request);
      if (!entry) return refusal;
      if (!['awaiting_payment', 'cancelled'].includes(entry.checkout.status))
        return this.#error('invalid_transition', 409, { status: entry.checkout.status });
      entry.cancelled = true;
      entry.checkout = { ...entry.checkout, status: 'cancelled' };
      this.cancelled.add(entry.checkout.id);
      return this.#json(200, { data: entry.checkout, meta: META });
    },
    readInstallation: (request) => {
      const { entry, refusal } = this.#checkoutOf(request);
      if (!entry) return refusal;
      if (entry.checkout.status !== 'ready') return this.#error('esim_not_found', 409, {});
      return this.#json(200, { data: { checkoutId: entry.checkout.id, ...installation }, meta: META });
    },
    createDeliveryLink: (request) => {
      const { entry, refusal } = this.#checkoutOf(request);
      if (!entry) return refusal;
      return this.#json(201, {
        data: {
          id: 'dl_1',
          url: 'https://bff.example/d/secret-link-token',
          maxViews: 1,
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        },
        meta: META,
      });
    },
    createManageLink: (request) => {
      const { entry, refusal } = this.#checkoutOf(request);
      if (!entry) return refusal;
      if (entry.checkout.status !== 'ready') return this.#error('invalid_transition', 409, {});
      const manageToken = `manage_${entry.checkout.id}_0123456789abcdef`;
      if (!this.esims.has(manageToken)) this.addEsim(manageToken, esimView({ installed: false }));
      const link: ManageLink = {
        id: `ml_${entry.checkout.id}`,
        manageToken,
        esimId: 'esim_1',
        widgetId: this.config.widgetId,
        expiresAt: '2026-11-25T08:00:00.000Z',
      };
      return this.#json(201, { data: link, meta: META });
    },
    readMyEsim: ({ headers }) => {
      const view = this.esims.get(headers['x-manage-token'] ?? '');
      if (!view) return this.#error('widget_session_invalid', 401, {});
      return this.#json(200, { data: view, meta: META });
    },
    readMyInstallation: ({ headers }) => {
      const view = this.esims.get(headers['x-manage-token'] ?? '');
      if (!view) return this.#error('widget_session_invalid', 401, {});
      if (view.installed) return this.#error('invalid_transition', 409, {});
      const data: EsimInstallationView = { esimId: view.esimId, ...installation };
      return this.#json(200, { data, meta: META });
    },
  };
}
