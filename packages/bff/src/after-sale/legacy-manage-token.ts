/**
 * @module
 * Manage tokens of the release before: compact HS256 JWTs under a key derived from the root secret, with a
 * `mlk_` id inside. Links already sent keep opening their eSIM until they expire (at most a year after they
 * were minted); nothing mints them any more. Revocations recorded by id then, and the eSIM's not-before time,
 * are checked by the caller.
 */
import { createHmac } from 'node:crypto';
import { EnvironmentSchema, WidgetIdSchema } from '@esim-embed/shared';
import { z } from 'zod';
import { ApiError } from '../errors';
import { createCompactJwt } from '../security/session-token';

/** What a signed manage token of the release before says. */
export const LegacyManageClaimsSchema = z.strictObject({
  typ: z.literal('manage'),
  mid: z.string().regex(/^mlk_[A-Za-z0-9_-]{16,64}$/),
  wid: WidgetIdSchema,
  env: EnvironmentSchema,
  esim: z.string().min(1).max(128),
  iat: z.int().min(0),
  exp: z.int().min(0),
});
export type LegacyManageClaims = z.infer<typeof LegacyManageClaimsSchema>;

/** The key those tokens were signed with, derived from one root secret as that release derived it. */
export function legacyManageKey(secret: Uint8Array): Buffer {
  return createHmac('sha256', Buffer.from(secret)).update('esim-embed manage token v1').digest();
}

const invalid = (reason: string) => new ApiError('widget_session_invalid', { params: { reason } });

/**
 * Verifies those tokens under any of `secrets` (a root secret rotated out since still opens what it signed):
 * the claims of a well-signed, unexpired token; `widget_session_invalid` with the reason otherwise.
 */
export function createLegacyManageVerifier(
  secrets: readonly Uint8Array[],
): (token: string, nowMs: number) => LegacyManageClaims {
  const signers = secrets.map((secret) => createCompactJwt(legacyManageKey(secret)));
  return function verifyLegacyManageToken(token, nowMs) {
    let refusal: unknown = invalid('malformed');
    for (const jwt of signers) {
      let payload: unknown;
      try {
        payload = jwt.verify(token);
      } catch (error) {
        refusal = error;
        continue;
      }
      const claims = LegacyManageClaimsSchema.safeParse(payload);
      if (!claims.success) throw invalid('malformed');
      const time = Math.floor(nowMs / 1000);
      if (claims.data.exp <= time) throw invalid('expired');
      if (claims.data.iat > time + 60) throw invalid('lifetime');
      return claims.data;
    }
    throw refusal;
  };
}
