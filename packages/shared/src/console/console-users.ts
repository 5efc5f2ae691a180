/**
 * @module
 * The partner's console users (admin only): listed, added (with a second factor whose `otpauth://` URI is
 * answered once, at enrolment, and never again), given another role, disabled; and the audit log of every action
 * taken in the console — who, what, when, on what — newest first.
 */
import { z } from 'zod';
import { ListQuerySchema } from '../api/list-page';
import { DateTimeSchema } from '../upstream/upstream-common';
import { ConsoleRoleSchema } from './console-roles';
import { ConsolePasswordSchema, ConsoleUsernameSchema } from './console-session';

/** A console user as an admin sees them (never a password hash or a second factor's secret). */
export const ConsoleUserSchema = z.strictObject({
  id: z.string().min(1),
  username: z.string().min(1),
  role: ConsoleRoleSchema,
  secondFactor: z.boolean(),
  disabled: z.boolean(),
  /** Added by the release command (`cli`), by an admin (`console`) or on a first single sign-on (`sso`). */
  createdBy: z.enum(['cli', 'console', 'sso']),
  createdAt: DateTimeSchema,
  lastSignInAt: DateTimeSchema.nullable(),
});
export type ConsoleUser = z.infer<typeof ConsoleUserSchema>;

/** `POST /console/api/users`: the new user's name, first password, role and whether they get a second factor. */
export const CreateConsoleUserRequestSchema = z.strictObject({
  username: ConsoleUsernameSchema,
  password: ConsolePasswordSchema,
  role: ConsoleRoleSchema,
  /** Enrol a TOTP second factor now (a `live` console requires one for `admin`). Default true. */
  secondFactor: z.boolean().default(true),
});
export type CreateConsoleUserRequest = z.input<typeof CreateConsoleUserRequestSchema>;

/** The user added, and — only in this answer — the second factor's URI to scan into an authenticator app. */
export const CreatedConsoleUserSchema = z.strictObject({
  user: ConsoleUserSchema,
  /** `otpauth://totp/…?secret=…&issuer=…`; null without a second factor. Shown once: it is never answered again. */
  otpauthUri: z.string().startsWith('otpauth://totp/').nullable(),
});
export type CreatedConsoleUser = z.infer<typeof CreatedConsoleUserSchema>;

/** `PATCH /console/api/users/{id}`: a new role, or disabled (its sessions end at once) or enabled again. */
export const UpdateConsoleUserRequestSchema = z
  .strictObject({
    role: ConsoleRoleSchema.optional(),
    disabled: z.boolean().optional(),
  })
  .refine((body) => body.role !== undefined || body.disabled !== undefined, {
    message: 'name a role or disabled',
  });
export type UpdateConsoleUserRequest = z.infer<typeof UpdateConsoleUserRequestSchema>;

/** What an audit entry records: every sign-in (and refused one) and every write. */
export const ConsoleAuditActionSchema = z.enum([
  'sign_in',
  'sign_in_refused',
  'sign_out',
  'webhook_delivery_resent',
  'failed_webhook_deliveries_resent',
  'help_request_made',
  'delivery_link_made',
  'manage_link_made',
  'traveller_erased',
  'user_added',
  'user_changed',
]);
export type ConsoleAuditAction = z.infer<typeof ConsoleAuditActionSchema>;

/** One action taken in the console. Ids only: never a password, token, link, code or e-mail address. */
export const ConsoleAuditEntrySchema = z.strictObject({
  id: z.string().min(1),
  at: DateTimeSchema,
  action: ConsoleAuditActionSchema,
  /** Who: the user's id and name (for a refused sign-in, the name tried when it is a user of this partner). */
  actor: z.strictObject({ userId: z.string().nullable(), username: z.string() }),
  /** What it was done to: ids such as `checkoutId`, `esimId`, `deliveryId`, `userId`, `actionRequestId`. */
  target: z.record(z.string(), z.string()),
  /** A few more facts that are not secrets: a help request's reason, a user's new role, how many were resent. */
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});
export type ConsoleAuditEntry = z.infer<typeof ConsoleAuditEntrySchema>;

/** `GET /console/api/audit?limit=&cursor=`: newest first. */
export const ConsoleAuditQuerySchema = ListQuerySchema;
export type ConsoleAuditQuery = z.infer<typeof ConsoleAuditQuerySchema>;
