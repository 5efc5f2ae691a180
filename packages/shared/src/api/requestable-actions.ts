/**
 * @module
 * Which post-sale actions of an eSIM the partner's server can request now: the one rule that the BFF's
 * `POST /v1/partner/esims/{esimId}/action-requests` enforces and the widget's help panel reports in `esim-help`.
 *
 * How the contract is read: an action is requested by creating an action request (cancellation, refund or
 * reissue). `availability` says whether the service takes it now — `available` acts at once, `manual_review`
 * takes the request and decides after review (how refunds and reissues normally go); `unavailable` and `unknown`
 * take nothing. `access` says through which channel: `api` and `assisted` are both requested over the API
 * (`assisted`: the service's staff act on the request), `none` has no channel at all. Availability alone does not
 * make an action requestable: without an access channel it is not. A top-up is bought, never requested.
 */
import type { EsimActionAccess, EsimActionAvailability, EsimActionType } from '../upstream/esim';

/** The action types an action request can name. */
export type RequestableActionType = Exclude<EsimActionType, 'top_up'>;

/** Availabilities under which the service takes a request: at once, or through its review. */
const REQUESTABLE_AVAILABILITY: ReadonlySet<EsimActionAvailability> = new Set(['available', 'manual_review']);
/** Channels reached through the API (`assisted`: the service's staff then act on the request). */
const REQUESTABLE_ACCESS: ReadonlySet<EsimActionAccess> = new Set(['api', 'assisted']);

/** What of an action the rule reads. */
export interface ActionReach {
  type: EsimActionType;
  availability: EsimActionAvailability;
  access: EsimActionAccess;
}

/** Whether the partner's server can request this action now (see the module's reading of the contract). */
export function isActionRequestable(
  action: ActionReach,
): action is ActionReach & { type: RequestableActionType } {
  return (
    action.type !== 'top_up' &&
    REQUESTABLE_AVAILABILITY.has(action.availability) &&
    REQUESTABLE_ACCESS.has(action.access)
  );
}

/** The types of `actions` that can be requested now, in the order given. */
export function requestableActionTypes(actions: readonly ActionReach[]): RequestableActionType[] {
  const types: RequestableActionType[] = [];
  for (const action of actions) if (isActionRequestable(action)) types.push(action.type);
  return types;
}
