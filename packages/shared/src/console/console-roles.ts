/**
 * @module
 * Who may do what in the partner console: a console user belongs to one partner and has one role — `viewer`
 * reads, `support` also resends deliveries, asks for a cancellation or a reissue and sends delivery and manage
 * links, `admin` also asks for a refund (it moves money), erases a traveller's data and manages the partner's
 * console users. Each role holds every right of the roles before it, so a route names the least role it needs.
 */
import { z } from 'zod';
import type { ActionRequestType } from '../upstream/action-request';

/** The roles, from the least to the most allowed. */
export const CONSOLE_ROLES = ['viewer', 'support', 'admin'] as const;
export const ConsoleRoleSchema = z.enum(CONSOLE_ROLES);
export type ConsoleRole = z.infer<typeof ConsoleRoleSchema>;

/** Whether `role` holds the rights of `needed` (every role holds those of the roles before it). */
export function roleAllows(role: ConsoleRole, needed: ConsoleRole): boolean {
  return CONSOLE_ROLES.indexOf(role) >= CONSOLE_ROLES.indexOf(needed);
}

/**
 * The least role that may ask for each kind of help request. A refund moves the partner's money back to the
 * traveller, so it is an admin's; a cancellation or a reissue is support's everyday work.
 */
export const HELP_REQUEST_ROLE: Readonly<Record<ActionRequestType, ConsoleRole>> = {
  cancellation: 'support',
  reissue: 'support',
  refund: 'admin',
};
