/**
 * @module
 * Manage tokens: the signed, revocable key to one eSIM's own view in one widget ("my eSIM"). Compact HS256
 * JWTs like session tokens (same pinned-algorithm code, a key derived for this purpose only), bound to the
 * widget, the environment and the eSIM, valid while the plan can be used (capped), revocable by id.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { EnvironmentSchema, type ManageLink, WidgetIdSchema } from '@esim-embed/shared';
import { z } from 'zod';
import { ApiError } from '../errors';
import { createCompactJwt } from '../security/session-token';
import { STORE_KEYS, type Store } from '../store/store';

/** The longest a manage token lives, whatever the plan's service end (a year). */
export const MAX_MANAGE_TOKEN_TTL_MS = 365 * 24 * 60 * 60 * 1000;
/** When the plan's service end is not known yet (not activated), the token lives this long. */
export const DEFAULT_MANAGE_TOKEN_TTL_MS = 180 * 24 * 60 * 60 * 1000;

/** What a manage token says. `typ` keeps it from ever passing as a session token (and back). */
export const ManageClaimsSchema = z.strictObject({
  typ: z.literal('manage'),
  /** The token's id, to revoke it. */
  mid: z.string().regex(/^mlk_[A-Za-z0-9_-]{16,64}$/),
  wid: WidgetIdSchema,
  env: EnvironmentSchema,
  esim: z.string().min(1).max(128),
  iat: z.int().min(0),
  exp: z.int().min(0),
});
export type ManageClaims = z.infer<typeof ManageClaimsSchema>;

export interface ManageTokensOptions {
  /** The session-signing secret; manage tokens are signed with a key derived from it. */
  secret: Uint8Array;
  store: Store;
  now?: () => number;
}

/** Mints, verifies and revokes manage tokens. */
export interface ManageTokens {
  /** A token for `esimId` in `widgetId`, valid until `serviceEndsAt` (capped), or a default span. */
  mint(subject: {
    widgetId: string;
    environment: 'test' | 'live';
    esimId: string;
    serviceEndsAtMs: number | null;
  }): ManageLink;
  /** The claims of a valid, unrevoked token; `widget_session_invalid` otherwise. */
  verify(token: string): Promise<ManageClaims>;
  /** Revoke a token by id until `untilMs` (its expiry; default: the longest a token may live). */
  revoke(tokenId: string, untilMs?: number): Promise<string>;
}

const invalid = (reason: string) => new ApiError('widget_session_invalid', { params: { reason } });

/** A verified manage token must be present and open `esimId` in `widget` (a top-up, the eSIM's view). */
export function assertManagesEsim(
  manage: ManageClaims | undefined,
  widget: { id: string; environment: 'test' | 'live' },
  esimId: string,
): void {
  if (manage === undefined) throw invalid('manage_token_missing');
  if (manage.wid !== widget.id || manage.env !== widget.environment) throw invalid('manage_token_widget');
  if (manage.esim !== esimId) throw new ApiError('esim_not_found', { params: { esimId } });
}

/** The {@link ManageTokens} of a BFF. */
export function createManageTokens(options: ManageTokensOptions): ManageTokens {
  const now = options.now ?? Date.now;
  const key = createHmac('sha256', Buffer.from(options.secret)).update('esim-embed manage token v1').digest();
  const jwt = createCompactJwt(key);
  return {
    mint({ widgetId, environment, esimId, serviceEndsAtMs }) {
      const time = now();
      const cap = time + MAX_MANAGE_TOKEN_TTL_MS;
      const end =
        serviceEndsAtMs !== null && serviceEndsAtMs > time
          ? Math.min(serviceEndsAtMs, cap)
          : time + DEFAULT_MANAGE_TOKEN_TTL_MS;
      const claims: ManageClaims = {
        typ: 'manage',
        mid: `mlk_${randomBytes(18).toString('base64url')}`,
        wid: widgetId,
        env: environment,
        esim: esimId,
        iat: Math.floor(time / 1000),
        exp: Math.floor(end / 1000),
      };
      return {
        id: claims.mid,
        manageToken: jwt.sign(claims),
        esimId,
        widgetId,
        expiresAt: new Date(claims.exp * 1000).toISOString(),
      };
    },
    async verify(token) {
      const claims = ManageClaimsSchema.safeParse(jwt.verify(token));
      if (!claims.success) throw invalid('malformed');
      const time = Math.floor(now() / 1000);
      if (claims.data.exp <= time) throw invalid('expired');
      if (claims.data.iat > time + 60) throw invalid('lifetime');
      if ((await options.store.get(STORE_KEYS.manageRevocation(claims.data.mid))) !== null) {
        throw invalid('revoked');
      }
      return claims.data;
    },
    async revoke(tokenId, untilMs) {
      const ttl = Math.max(60_000, (untilMs ?? now() + MAX_MANAGE_TOKEN_TTL_MS) - now());
      const revokedAt = new Date(now()).toISOString();
      await options.store.insert(STORE_KEYS.manageRevocation(tokenId), revokedAt, ttl);
      return (await options.store.get(STORE_KEYS.manageRevocation(tokenId)))?.value ?? revokedAt;
    },
  };
}
