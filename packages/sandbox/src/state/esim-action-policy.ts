/**
 * @module
 * Which post-sale actions an eSIM allows now, and why: the sandbox's eligibility rules, in one place for the
 * actions resource (`GET /esims/{id}/actions`) and the action request that acts on them. A revoked or expired
 * profile allows nothing; an unused one (service not started, never activated) may be cancelled over the API,
 * once; refunds and reissues of a live profile go to the service's review; a top-up as the top-up offers say.
 */
import type { EsimActionAccess, EsimActionAvailability, EsimActionType } from '@esim-embed/shared';
import type { EnvironmentState, EsimRecord } from './environment-state';

/** What the rules decide for one action: everything of it but the links and times. */
export interface ActionEligibility {
  availability: EsimActionAvailability;
  access: EsimActionAccess;
  reasonCode: string;
  retryable: boolean;
}

/** A profile that can no longer take any action. */
export function isProfileGone(esim: EsimRecord): boolean {
  return esim.state === 'revoked' || esim.state === 'expired';
}

/** A profile that was never used: the service has not started and it was never activated. */
export function isProfileUnused(esim: EsimRecord): boolean {
  return esim.serviceState === 'not_started' && esim.activatedAtMs === null;
}

/** Each action's eligibility now. `topUpAvailable`: whether the eSIM's top-up offers are available. */
export function esimActionEligibility(
  env: EnvironmentState,
  esim: EsimRecord,
  topUpAvailable: boolean,
): Record<EsimActionType, ActionEligibility> {
  const gone = isProfileGone(esim);
  const cancelled = [...env.actionRequests.values()].some(
    (request) =>
      request.esimId === esim.id && request.type === 'cancellation' && request.status !== 'rejected',
  );
  const unused = isProfileUnused(esim);
  const cancellable = unused && !gone && !cancelled;
  return {
    top_up: {
      availability: topUpAvailable ? 'available' : 'unavailable',
      access: topUpAvailable ? 'api' : 'none',
      reasonCode: topUpAvailable ? 'eligible' : gone ? 'profile_ineligible' : 'not_supported',
      retryable: false,
    },
    cancellation: {
      availability: cancellable ? 'available' : 'unavailable',
      access: cancellable ? 'api' : 'none',
      reasonCode: cancelled
        ? 'already_requested'
        : gone
          ? 'profile_ineligible'
          : unused
            ? 'unused_profile'
            : 'profile_in_use',
      retryable: false,
    },
    refund: {
      availability: gone ? 'unavailable' : 'manual_review',
      access: gone ? 'none' : 'assisted',
      reasonCode: gone ? 'profile_ineligible' : 'manual_review_required',
      retryable: false,
    },
    reissue: {
      availability: gone ? 'unavailable' : 'manual_review',
      access: gone ? 'none' : 'assisted',
      reasonCode: gone ? 'profile_ineligible' : 'support_assisted',
      retryable: true,
    },
  };
}
