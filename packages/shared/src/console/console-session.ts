/**
 * @module
 * Signing in to the partner console and the session it opens: `POST /console/api/session` with a name, a
 * password and — for a user with a second factor — the current TOTP code sets the session cookie and answers the
 * session; `GET` reads it (with the CSRF token every write sends back), `DELETE` signs out. Behind a single
 * sign-on proxy, the proxy's header signs the user in instead and `GET` is the first call.
 */
import { z } from 'zod';
import { DateTimeSchema } from '../upstream/upstream-common';
import { ConsoleRoleSchema } from './console-roles';

/** A console user's sign-in name: what they type (an e-mail address or a short name), compared in lower case. */
export const ConsoleUsernameSchema = z
  .string()
  .trim()
  .min(1)
  .max(254)
  .regex(/^[^\s\p{Cc}]+$/u, 'no spaces or control characters');

/** A password: long enough to matter, bounded so that hashing it costs the same for everyone. */
export const ConsolePasswordSchema = z.string().min(12).max(256);

/** A TOTP code: 6 digits (RFC 6238, 30-second steps). */
export const TotpCodeSchema = z.string().regex(/^\d{6}$/, 'six digits');

/** `POST /console/api/session`. A wrong name, password or code are answered alike (`unauthorized`, `credentials`). */
export const ConsoleSignInRequestSchema = z.strictObject({
  username: ConsoleUsernameSchema,
  // Any length is checked (and refused alike) rather than told apart from a wrong one.
  password: z.string().min(1).max(256),
  totp: TotpCodeSchema.optional(),
});
export type ConsoleSignInRequest = z.infer<typeof ConsoleSignInRequestSchema>;

/** One widget of the user's partner, as the console's filters and pages name it. */
export const ConsoleWidgetSchema = z.strictObject({
  id: z.string().min(1),
  displayName: z.string(),
  environment: z.enum(['test', 'live']),
});
export type ConsoleWidget = z.infer<typeof ConsoleWidgetSchema>;

/** The signed-in user as the console shows them. */
export const ConsoleSessionUserSchema = z.strictObject({
  id: z.string().min(1),
  username: z.string().min(1),
  role: ConsoleRoleSchema,
  /** Whether the user signs in with a second factor (TOTP). */
  secondFactor: z.boolean(),
  /** How this session was opened. */
  via: z.enum(['password', 'sso']),
});
export type ConsoleSessionUser = z.infer<typeof ConsoleSessionUserSchema>;

/** The session: who, which partner's widgets, the CSRF token for writes, and when it ends. */
export const ConsoleSessionSchema = z.strictObject({
  user: ConsoleSessionUserSchema,
  /** The partner the user belongs to: the id of its first widget (as `partner` is named in the users' config). */
  partnerId: z.string().min(1),
  /** The widgets the partner's secret opens: everything the console shows is theirs. */
  widgets: z.array(ConsoleWidgetSchema),
  /** Send it as `X-CSRF-Token` with every write (POST, PATCH, DELETE). */
  csrfToken: z.string().min(16),
  /** When the session ends unless used before (each request moves it). */
  idleExpiresAt: DateTimeSchema,
  /** When the session ends whatever happens: sign in again. */
  expiresAt: DateTimeSchema,
});
export type ConsoleSession = z.infer<typeof ConsoleSessionSchema>;
