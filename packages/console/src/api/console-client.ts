/**
 * @module
 * The console's one client of the console API: each call names its route (`readSale`), from which come its
 * method and path (the route table's, reduced at build time: `scripts/console-contract-defines.ts`); writes carry the session's CSRF token; every call can be aborted. In development and
 * tests each answer is parsed with its route's schema (the contract between the page and the BFF), in production
 * only read, so the build keeps two strings per route and none of the schemas.
 */
import type {
  ManageLink,
  PartnerActionRequest,
  PartnerCheckout,
  PartnerDeliveryLink,
  PartnerWebhookDelivery,
  PrivacyErasure,
} from '@esim-embed/shared';
import type {
  ConsoleAuditEntry,
  ConsoleFunnelChart,
  ConsoleMoney,
  ConsoleRouteId,
  ConsoleSalePage,
  ConsoleSalesChart,
  ConsoleSession,
  ConsoleUser,
  ConsoleWebhooksHealth,
  CreatedConsoleUser,
  ResendFailedDeliveriesResult,
} from '@esim-embed/shared/console';
import { ConsoleApiError, errorFromAnswer } from './console-api-error';

/** A list page's answer. */
export interface ListPage<T> {
  readonly data: T[];
  readonly nextCursor: string | null;
}

/**
 * What each route answers (its `data`, or the list page). The route table types its schemas as any zod type, so
 * the answers are named here once, and development builds check them against the table's schemas.
 */
export interface ConsoleAnswers {
  signIn: ConsoleSession;
  readSession: ConsoleSession;
  signOut: { signedOut: true };
  searchSales: ListPage<PartnerCheckout>;
  exportSales: never;
  readSale: ConsoleSalePage;
  readWebhooksHealth: ConsoleWebhooksHealth;
  readMoney: ConsoleMoney;
  readSalesChart: ConsoleSalesChart;
  readFunnelChart: ConsoleFunnelChart;
  resendWebhookDelivery: PartnerWebhookDelivery;
  resendFailedWebhookDeliveries: ResendFailedDeliveriesResult;
  requestHelp: PartnerActionRequest;
  createDeliveryLink: PartnerDeliveryLink;
  createManageLink: ManageLink;
  eraseTraveller: PrivacyErasure;
  listUsers: ConsoleUser[];
  addUser: CreatedConsoleUser;
  changeUser: ConsoleUser;
  listAudit: ListPage<ConsoleAuditEntry>;
}

/** A call's parts: the path's parameters, the query (empty values left out) and the body of a write. */
export interface CallOptions {
  readonly params?: Record<string, string>;
  readonly query?: Record<string, string | number | undefined>;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
}

/** The address of a route under the console API: `/console/api/sales/chk_1?…`. */
export function routeUrl(id: ConsoleRouteId, options: Pick<CallOptions, 'params' | 'query'> = {}): string {
  const path = __CONSOLE_CONTRACT__.routes[id][1].replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(options.params?.[name] ?? ''),
  );
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const search = query.toString();
  return `${path}${search ? `?${search}` : ''}`;
}

/** The console API client: `csrfToken` is the session's, set once it is known. */
export class ConsoleClient {
  csrfToken: string | undefined;
  /** Called when an answer says the session ended (401 `session`), so the page can ask to sign in again. */
  onSessionEnded: (() => void) | undefined;

  constructor(private readonly fetchImpl: typeof fetch = (...args) => fetch(...args)) {}

  /** Calls a route and answers its `data` (a list page whole). */
  async call<Id extends ConsoleRouteId>(id: Id, options: CallOptions = {}): Promise<ConsoleAnswers[Id]> {
    const [method] = __CONSOLE_CONTRACT__.routes[id];
    const write = method !== 'GET';
    const headers: Record<string, string> = { accept: 'application/json' };
    if (write) headers['content-type'] = 'application/json';
    if (write && this.csrfToken) headers[__CONSOLE_CONTRACT__.csrfHeader] = this.csrfToken;
    let answer: Response;
    try {
      answer = await this.fetchImpl(routeUrl(id, options), {
        method,
        headers,
        credentials: 'same-origin',
        ...(write ? { body: JSON.stringify(options.body ?? {}) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ConsoleApiError('network', 0);
    }
    if (!answer.ok) {
      const error = await errorFromAnswer(answer);
      if (error.status === 401 && error.params.reason === 'session' && id !== 'readSession') {
        this.onSessionEnded?.();
      }
      throw error;
    }
    const body = (await answer.json()) as { data: unknown; nextCursor?: string | null };
    if (import.meta.env.DEV) {
      // The contract held in development and tests (the production build has no schema: see the module's note).
      const { consoleRoutes } = await import('@esim-embed/shared/console');
      const route = consoleRoutes[id];
      if ('response' in route && route.response) route.response.parse(body);
    }
    return (
      'nextCursor' in body ? { data: body.data, nextCursor: body.nextCursor } : body.data
    ) as ConsoleAnswers[Id];
  }
}
