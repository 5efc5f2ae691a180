/**
 * @module
 * What a verified manage token grants — one eSIM in one widget and environment — and the check every route that
 * acts on a managed eSIM makes of it (a top-up's quote and checkout, "my eSIM"). The tokens themselves are
 * minted, stored and verified in `after-sale/manage-token.ts`.
 */
import { ApiError } from '../errors';

/** What a verified manage token grants: one eSIM in one widget and environment. */
export interface ManageClaims {
  /** The link's public id (`mlk_…`), for logs and revocation. */
  mid: string;
  wid: string;
  env: 'test' | 'live';
  esim: string;
}

/** A verified manage token must be present and open `esimId` in `widget` (a top-up, the eSIM's view). */
export function assertManagesEsim(
  manage: ManageClaims | undefined,
  widget: { id: string; environment: 'test' | 'live' },
  esimId: string,
): void {
  if (manage === undefined)
    throw new ApiError('widget_session_invalid', { params: { reason: 'manage_token_missing' } });
  if (manage.wid !== widget.id || manage.env !== widget.environment)
    throw new ApiError('widget_session_invalid', { params: { reason: 'manage_token_widget' } });
  if (manage.esim !== esimId) throw new ApiError('esim_not_found', { params: { esimId } });
}
