/**
 * @module
 * The admin's routes over the partner's console users and its audit log: list, add (the second factor's
 * enrolment URI answered once), change a role or disable, and the audit log newest first by cursor. An admin
 * reaches only their own partner's users; another partner's user is answered as unknown.
 */
import {
  ConsoleAuditQuerySchema,
  CreateConsoleUserRequestSchema,
  UpdateConsoleUserRequestSchema,
} from '@esim-embed/shared/console';
import type { Context } from 'hono';
import { ApiError } from '../errors';
import { answerJson } from '../http/answer';
import { parseOrThrow, readJsonBody } from '../http/json-body';
import { answerPageAfter } from '../http/list-page';
import type { ConsoleAudit } from './console-audit';
import type { ConsoleEnv } from './console-auth';
import { consoleCursor } from './console-cursors';
import { partnerIsLive } from './console-partners';
import { type ConsoleHandlers, consoleMeta, NO_STORE } from './console-route-table';
import { type ConsoleUsers, toConsoleUser } from './console-users';

/** The most users one partner's list answers (a partner's staff, not its travellers). */
const USERS_LISTED = 100;

export interface ConsoleUserRoutesOptions {
  users: ConsoleUsers;
  audit: ConsoleAudit;
  /** Signs the console lists' cursors. */
  cursorKey: string;
}

/** The users and audit routes (admin). */
export function consoleUserHandlers(
  options: ConsoleUserRoutesOptions,
): ConsoleHandlers<'listUsers' | 'addUser' | 'changeUser' | 'listAudit'> {
  async function listUsers(c: Context<ConsoleEnv>) {
    const page = await options.users.list(c.get('consoleCaller').partner, null, USERS_LISTED);
    return answerJson(c, { data: page.items.map(toConsoleUser), meta: consoleMeta(c) }, 200, NO_STORE);
  }

  async function addUser(c: Context<ConsoleEnv>) {
    const body = await readJsonBody(c, CreateConsoleUserRequestSchema);
    const { partner } = c.get('consoleCaller');
    if (body.role === 'admin' && !body.secondFactor && partnerIsLive(partner)) {
      throw new ApiError('validation_failed', {
        params: { field: 'secondFactor', reason: 'required_for_live_admin' },
      });
    }
    const added = await options.users.add(partner, { ...body, createdBy: 'console' });
    await options.audit.recordBy(
      c.get('consoleCaller'),
      'user_added',
      { userId: added.user.id },
      { role: added.user.role, secondFactor: added.user.secondFactor !== null },
    );
    const data = { user: toConsoleUser(added.user), otpauthUri: added.otpauthUri };
    return answerJson(c, { data, meta: consoleMeta(c) }, 201, NO_STORE);
  }

  async function changeUser(c: Context<ConsoleEnv>) {
    const body = await readJsonBody(c, UpdateConsoleUserRequestSchema);
    const { partner, user: caller } = c.get('consoleCaller');
    const id = c.req.param('id') ?? '';
    const target = /^usr_[A-Za-z0-9_-]{1,32}$/.test(id) ? await options.users.read(id) : null;
    if (target === null || !partner.widgets.has(target.partnerId)) {
      throw new ApiError('not_found', { params: { userId: id } });
    }
    // An admin cannot take their own rights away: the partner would be left with no one to give them back.
    if (target.id === caller.id && (body.disabled === true || (body.role ?? 'admin') !== 'admin')) {
      throw new ApiError('validation_failed', { params: { field: 'id', reason: 'own_user' } });
    }
    if (body.role === 'admin' && target.secondFactor === null && partnerIsLive(partner)) {
      throw new ApiError('validation_failed', {
        params: { field: 'role', reason: 'second_factor_required' },
      });
    }
    const changed = await options.users.change(id, body);
    await options.audit.recordBy(
      c.get('consoleCaller'),
      'user_changed',
      { userId: id },
      { role: changed.role, disabled: changed.disabled },
    );
    return answerJson(c, { data: toConsoleUser(changed), meta: consoleMeta(c) }, 200, NO_STORE);
  }

  async function listAudit(c: Context<ConsoleEnv>) {
    const { limit, cursor } = parseOrThrow(ConsoleAuditQuerySchema, c.req.query(), 400, 'query');
    const { partner } = c.get('consoleCaller');
    return answerPageAfter(c, consoleCursor(options.cursorKey, partner, 'audit'), cursor, (after) =>
      options.audit.list(partner.id, after, limit),
    );
  }

  return { listUsers, addUser, changeUser, listAudit };
}
