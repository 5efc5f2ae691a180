/**
 * @module
 * Who may do what in the partner console: a console user belongs to one partner and has one role — `viewer`
 * reads, `support` also resends deliveries, makes help requests (cancellation, refund, reissue) and sends delivery
 * and manage links, `admin` also erases a traveller's data and manages the partner's console users. Each role
 * holds every right of the roles before it, so a route names the least role it needs.
 */
import { z } from 'zod';

/** The roles, from the least to the most allowed. */
export const CONSOLE_ROLES = ['viewer', 'support', 'admin'] as const;
export const ConsoleRoleSchema = z.enum(CONSOLE_ROLES);
export type ConsoleRole = z.infer<typeof ConsoleRoleSchema>;

/** Whether `role` holds the rights of `needed` (every role holds those of the roles before it). */
export function roleAllows(role: ConsoleRole, needed: ConsoleRole): boolean {
  return CONSOLE_ROLES.indexOf(role) >= CONSOLE_ROLES.indexOf(needed);
}
