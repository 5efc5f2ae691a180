/**
 * @module
 * Whether a widget can sell as configured, decided from the upstream's capabilities (read at start-up and on
 * every catalog refresh) and from the upstream's refusals of the credential itself. A widget that cannot
 * sell is stopped before a traveller pays: `/readyz` names the check that fails and sessions are refused with
 * `widget_misconfigured`. What the upstream's supply allows (new eSIMs, top-ups) shapes what is offered, read
 * strictly ({@link supplyReach}): availability alone does not make an operation usable through the API.
 * docs/configuration.md ("Upstream key and scopes") lists every check; keep it in step.
 */
import type {
  Capabilities,
  Environment,
  GrantedScope,
  SupplyAccess,
  SupplyAvailability,
} from '@esim-embed/shared';
import type { WidgetConfig } from '../config/config-schema';
import { UpstreamError } from '../upstream/upstream-error';

/** A `/readyz` check of one widget, and the reason a widget is stopped. */
export type FitnessCheck =
  | 'scope_missing'
  | 'environment_mismatch'
  | 'brand_mismatch'
  | 'client_certificate_required'
  | 'address_refused'
  | 'upstream_key_invalid';

/** One reason the widget cannot sell: the check, and what the operator must do (for the logs). */
export interface FitnessProblem {
  check: FitnessCheck;
  detail: string;
}

/** Whether the API can sell what one supply operation supplies, and how the upstream reported it. */
export interface SupplyReach {
  /** It can be sold through the API (`POST /orders`). */
  sellable: boolean;
  /** `route_dependent`: each offer (issue) or issued profile (top-up) is checked before it is sold. */
  perOfferCheck: boolean;
  /**
   * As the upstream reported it; `not_listed` when its capabilities do not list the operation, `unknown` while
   * they were never read.
   */
  availability: SupplyAvailability | 'not_listed' | 'unknown';
  access: SupplyAccess | 'not_listed' | 'unknown';
}

/** What the capabilities allow this widget. */
export interface WidgetFitness {
  /** Empty when the widget can sell; otherwise it is stopped. */
  problems: FitnessProblem[];
  /** New eSIMs can be bought (`supplyOperations` `issue` can be sold through the API). */
  sellsNewEsims: boolean;
  /** Top-ups are offered (`supplyOperations` `top_up` can be sold through the API). */
  offersTopUps: boolean;
  /** The `issue` supply as read: why nothing is sold, and whether each offer is checked first. */
  issue: SupplyReach;
  /** Worth an operator's look, not a reason to stop (a preview contract, an optional scope missing). */
  warnings: string[];
}

/**
 * The scopes a sale needs, whatever the mode: browse, quote, place and read the order, and read the eSIM's
 * installation data (without `esims:read` the traveller would pay and never get the eSIM).
 */
const SALE_SCOPES: readonly GrantedScope[] = [
  'catalog:read',
  'quotes:write',
  'orders:write',
  'orders:read',
  'esims:read',
];

/** What a missing optional scope costs (the widget still sells). */
const OPTIONAL_SCOPES: ReadonlyArray<[GrantedScope, string]> = [
  ['actions:read', 'help requests (refund, reissue) cannot be read'],
  ['actions:write', 'help requests (refund, reissue) cannot be made'],
  ['delivery_links:write', 'delivery links cannot be created'],
];

/** What of a widget's config the capabilities are checked against. */
export type FitnessSubject = Pick<WidgetConfig, 'environment' | 'checkoutMode'> & {
  upstream: Pick<WidgetConfig['upstream'], 'brandKey'>;
};

/** The fitness of a widget with these capabilities. */
export function assessCapabilities(capabilities: Capabilities, widget: FitnessSubject): WidgetFitness {
  const problems: FitnessProblem[] = [];
  const warnings: string[] = [];
  const granted = new Set(capabilities.grantedScopes);
  // The partner_confirm mode checks the account's balance before the partner takes payment and waits when it
  // cannot read it; a direct checkout goes on unchecked (the order's own check decides).
  const required =
    widget.checkoutMode === 'partner_confirm' ? [...SALE_SCOPES, 'balance:read' as const] : SALE_SCOPES;
  const missing = required.filter((scope) => !granted.has(scope));
  if (missing.length > 0) {
    problems.push({
      check: 'scope_missing',
      detail: `the upstream key lacks ${missing.join(', ')}: grant ${missing.length > 1 ? 'them' : 'it'} to the key`,
    });
  }
  if (widget.checkoutMode === 'direct' && !granted.has('balance:read')) {
    warnings.push('the upstream key lacks balance:read: funding is not checked before an order');
  }
  for (const [scope, cost] of OPTIONAL_SCOPES) {
    if (!granted.has(scope)) warnings.push(`the upstream key lacks ${scope}: ${cost}`);
  }
  if (capabilities.environment !== widget.environment) {
    problems.push({
      check: 'environment_mismatch',
      detail: `the widget is ${widget.environment} but the upstream key is ${capabilities.environment}`,
    });
  }
  const attestation = capabilities.tenantAttestation;
  const brandKey = widget.upstream.brandKey;
  if (brandKey !== undefined && attestation?.brandKey !== brandKey) {
    problems.push({
      check: 'brand_mismatch',
      detail: attestation
        ? `the upstream key is bound to brand ${attestation.brandKey}, the widget names ${brandKey}`
        : `the widget names brand ${brandKey} but the upstream key is bound to no brand`,
    });
  }
  if (capabilities.contractStatus !== 'stable') {
    warnings.push('the upstream contract is in preview: fields may change without a new version');
  }
  const issue = supplyReach(capabilities, 'issue');
  const topUp = supplyReach(capabilities, 'top_up');
  if (!issue.sellable) {
    warnings.push(
      `the upstream's issue supply is ${issue.availability} with access ${issue.access}` +
        ` in ${capabilities.environment}: new eSIMs cannot be sold through the API, nothing is sold`,
    );
  }
  if (!topUp.sellable) {
    warnings.push(
      `the upstream's top_up supply is ${topUp.availability} with access ${topUp.access}` +
        ` in ${capabilities.environment}: no top-up is offered`,
    );
  }
  return { problems, sellsNewEsims: issue.sellable, offersTopUps: topUp.sellable, issue, warnings };
}

/**
 * Whether what a supply operation supplies can be sold through the API, the contract read strictly ("availability
 * alone does not create an endpoint"): access `api` (not `bridge`, `assisted` or `none`), and availability
 * `available`, `route_dependent` (then each offer or issued profile is checked before it is sold) or, in the
 * `test` environment only, `simulated`. An operation the capabilities do not list is not sold.
 */
export function supplyReach(
  capabilities: Pick<Capabilities, 'supplyOperations' | 'environment'>,
  id: 'issue' | 'top_up',
): SupplyReach {
  const operation = capabilities.supplyOperations.find((candidate) => candidate.id === id);
  if (!operation)
    return { sellable: false, perOfferCheck: false, availability: 'not_listed', access: 'not_listed' };
  const { availability, access } = operation;
  const supplied =
    availability === 'available' ||
    availability === 'route_dependent' ||
    (availability === 'simulated' && capabilities.environment === ('test' satisfies Environment));
  return {
    sellable: access === 'api' && supplied,
    perOfferCheck: availability === 'route_dependent',
    availability,
    access,
  };
}

/**
 * The problem behind an upstream error about the credential itself (mTLS, CIDR, scope, key), or null when the
 * error is something else (an outage, a refusal of one request).
 */
export function credentialProblem(error: unknown): FitnessProblem | null {
  if (!(error instanceof UpstreamError) || error.configurationProblem === null) return null;
  const check: FitnessCheck =
    error.upstreamCode === 'enterprise_auth_required'
      ? 'client_certificate_required'
      : error.upstreamCode === 'scope_missing'
        ? 'scope_missing'
        : error.upstreamCode === 'forbidden' && error.configurationProblem.includes('CIDR')
          ? 'address_refused'
          : 'upstream_key_invalid';
  return { check, detail: error.configurationProblem };
}
