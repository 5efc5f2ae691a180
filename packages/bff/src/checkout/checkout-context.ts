/**
 * @module
 * What every part of the sale shares: the caller of a widget route, the store and the repository, the sync that
 * places and refreshes orders, and the two ways a checkout is loaded (by its widget's holder, by its partner).
 */
import { createHash, randomBytes } from 'node:crypto';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import type { ManageClaims } from '../security/manage-claims';
import type { SessionClaims } from '../security/session-token';
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { assertWidgetAccess, type CheckoutSecrets } from './checkout-access';
import type { CheckoutFunding } from './checkout-funding';
import type { CheckoutRecord, CheckoutRepository, Stored } from './checkout-record';
import type { CheckoutSync } from './checkout-sync';

/** The caller of a widget route: a verified session and its widget. */
export interface SessionCaller {
  claims: SessionClaims;
  widget: WidgetRuntime;
  /** A verified manage token (`X-Manage-Token`), needed for a top-up of its eSIM. */
  manage?: ManageClaims | undefined;
  /** The client's address as limits count it (an IPv6 /64): caps the checkouts it leaves unpaid. */
  address?: string | undefined;
}

/** What the parts of the checkout service are built from (see `checkout-service.ts`). */
export interface CheckoutContext {
  store: Store;
  logger: Logger;
  secrets: CheckoutSecrets;
  repository: CheckoutRepository;
  sync: CheckoutSync;
  /** Checks and holds the partner's funding before a checkout exists (absent: no funding check). */
  funding: CheckoutFunding | undefined;
  now: () => number;
}

/** A checkout and the widget it belongs to. */
export interface LoadedCheckout {
  stored: Stored<CheckoutRecord>;
  widget: WidgetRuntime;
}

/** The caller's checkout: `checkout_not_found` unless its widget, origin and client secret fit. */
export async function loadForWidget(
  context: CheckoutContext,
  caller: SessionCaller,
  id: string,
  clientSecret: string | undefined,
): Promise<Stored<CheckoutRecord>> {
  const stored = await context.repository.getCheckout(id);
  assertWidgetAccess(
    stored?.record,
    { widgetId: caller.widget.config.id, origin: caller.claims.org },
    context.secrets.matches(id, clientSecret),
  );
  return stored as Stored<CheckoutRecord>;
}

/** A checkout of one of the partner's widgets: `checkout_not_found` for any other. */
export async function loadForPartner(
  context: CheckoutContext,
  widgets: ReadonlyMap<string, WidgetRuntime>,
  id: string,
): Promise<LoadedCheckout> {
  const stored = await context.repository.getCheckout(id);
  const widget = stored === null ? undefined : widgets.get(stored.record.widgetId);
  if (stored === null || widget === undefined) throw new ApiError('checkout_not_found');
  return { stored, widget };
}

/** A short, stable digest of a caller-given value, for the idempotency keys sent upstream. */
export const hash = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 32);

/** A new random id with its kind's prefix (`quo_…`, `chk_…`). */
export const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString('base64url')}`;
