/**
 * @module
 * The error answers of the console API: the BFF's error envelope (`ApiErrorEnvelopeSchema`) with codes the API
 * already has, and a `params.reason` that says which refusal it is, so the page can say what to do next.
 */
import { z } from 'zod';
import type { ApiErrorCode } from '../api/common';

/**
 * Why a console request was `unauthorized` (401): `credentials` (the name, password or second factor is wrong —
 * never which), `session` (no session, or it ended: idle too long, past its lifetime, signed out, its user
 * disabled), `second_factor` (the password was right and this user has a second factor: send `totp`).
 */
export const ConsoleUnauthorizedReasonSchema = z.enum(['credentials', 'session', 'second_factor']);
export type ConsoleUnauthorizedReason = z.infer<typeof ConsoleUnauthorizedReasonSchema>;

/**
 * Why a console request was `forbidden` (403): `csrf_token` (a write without the session's `X-CSRF-Token`, or
 * with another), `role` (the user's role lacks the right; `params.needed` names the least role that has it),
 * `second_factor_required` (a `live` BFF lets an admin without a second factor do nothing), `sso_only` (this
 * console signs in through single sign-on only).
 */
export const ConsoleForbiddenReasonSchema = z.enum([
  'csrf_token',
  'role',
  'second_factor_required',
  'sso_only',
]);
export type ConsoleForbiddenReason = z.infer<typeof ConsoleForbiddenReasonSchema>;

/**
 * The codes a console route may answer besides its own domain's (`checkout_not_found`, `esim_not_found`,
 * `action_not_available`, …, as the partner API answers them): `rate_limited` is a sign-in refused for a while
 * after too many failures from one address (with `Retry-After`), never a lock of the user from elsewhere.
 */
export const CONSOLE_ERROR_CODES = [
  'unauthorized',
  'forbidden',
  'validation_failed',
  'rate_limited',
  'not_found',
  'store_unavailable',
  'internal',
] as const satisfies readonly ApiErrorCode[];

/** The header every console write carries: the session's CSRF token (`ConsoleSession.csrfToken`). */
export const CONSOLE_CSRF_HEADER = 'X-CSRF-Token';
/** The session cookie's name (`HttpOnly; Secure; SameSite=Strict; Path=/console`). */
export const CONSOLE_SESSION_COOKIE = 'esim_console';
