/**
 * @module
 * Whether a widget can sell as configured, decided from the upstream's capabilities (read at start-up and on
 * every catalog refresh) and from the upstream's refusals of the credential itself. A widget that cannot
 * sell is stopped before a traveller pays: `/readyz` names the check that fails and sessions are refused with
 * `widget_misconfigured`. What the upstream's supply allows (new eSIMs, top-ups) shapes what is offered.
 * docs/configuration.md ("Upstream key and scopes") lists every check; keep it in step.
 */
import type { Capabilities, GrantedScope } from '@esim-embed/shared';
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

/** What the capabilities allow this widget. */
export interface WidgetFitness {
  /** Empty when the widget can sell; otherwise it is stopped. */
  problems: FitnessProblem[];
  /** New eSIMs can be bought (`supplyOperations` `issue` is reachable). */
  sellsNewEsims: boolean;
  /** Top-ups are offered (`supplyOperations` `top_up` is reachable). */
  offersTopUps: boolean;
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
  const sellsNewEsims = reachable(capabilities, 'issue');
  const offersTopUps = reachable(capabilities, 'top_up');
  if (!sellsNewEsims)
    warnings.push('the upstream offers no new eSIMs (supplyOperations issue): nothing is sold');
  return { problems, sellsNewEsims, offersTopUps, warnings };
}

/** Whether a supply operation can be used through the API (`unavailable`, or no access, means no). */
function reachable(capabilities: Capabilities, id: 'issue' | 'top_up'): boolean {
  const operation = capabilities.supplyOperations.find((candidate) => candidate.id === id);
  // An upstream that does not list the operation says nothing against it (older upstreams list none).
  if (!operation) return true;
  return operation.availability !== 'unavailable' && operation.access !== 'none';
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
