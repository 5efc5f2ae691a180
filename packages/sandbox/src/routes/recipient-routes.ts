/**
 * @module
 * Recipients: `GET /recipients` (filter `externalRef`), `POST /recipients` (under `Idempotency-Key`; one
 * recipient per `externalRef`, else `recipient_conflict`), `GET /recipients/{id}`, `PATCH /recipients/{id}`.
 */
import { RecipientCreateRequestSchema, RecipientPatchRequestSchema } from '@esim-embed/shared';
import { Hono } from 'hono';
import { z } from 'zod';
import { requireScope } from '../http/api-key-auth';
import { normalizedQuery, paginate } from '../http/cursors';
import { responseMeta, sendPage, sendResource } from '../http/envelope';
import { idempotentCreate } from '../http/idempotent-create';
import { readJsonBody, validate } from '../http/request-body';
import { recipientView } from '../http/resource-views';
import type { AuthContext, SandboxEnv } from '../http/sandbox-env';
import { SandboxError } from '../http/sandbox-error';
import type { RecipientRecord } from '../state/environment-state';
import type { SandboxState } from '../state/sandbox-state';
import { PAGE_LIMIT } from './catalog-routes';

const RecipientListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT.max).default(PAGE_LIMIT.default),
  cursor: z.string().min(1).optional(),
  externalRef: z.string().min(1).max(128).optional(),
});

function recipientOf(auth: AuthContext, id: string): RecipientRecord {
  const recipient = auth.env.recipients.get(id);
  if (!recipient || recipient.accountId !== auth.account.seed.id) {
    throw new SandboxError('recipient_not_found', { params: { recipientId: id } });
  }
  return recipient;
}

/** The recipient routes. */
export function recipientRoutes(state: SandboxState) {
  const routes = new Hono<SandboxEnv>();

  routes.get('/recipients', function listRecipients(c) {
    const auth = requireScope(c, 'recipients:read');
    const query = validate(RecipientListQuerySchema, c.req.query(), 'query');
    const recipients = [...auth.env.recipients.values()].filter(
      (recipient) =>
        recipient.accountId === auth.account.seed.id &&
        (query.externalRef === undefined || recipient.externalRef === query.externalRef),
    );
    const binding = {
      query: normalizedQuery('recipients', `${auth.env.environment}:${auth.account.seed.id}`, {
        externalRef: query.externalRef,
      }),
      snapshot: 0,
    };
    const page = paginate(recipients, {
      secret: state.cursorSecret,
      binding,
      cursor: query.cursor,
      limit: query.limit,
    });
    return sendPage(
      c,
      page.items.map((recipient) => recipientView(auth.env, recipient)),
      { nextCursor: page.nextCursor, hasMore: page.hasMore },
    );
  });

  routes.post('/recipients', async function postRecipient(c) {
    const auth = requireScope(c, 'recipients:write');
    const body = await readJsonBody(c);
    const nowMs = state.now();
    return idempotentCreate(c, nowMs, body, () => {
      const input = validate(RecipientCreateRequestSchema, body, 'body');
      const taken = [...auth.env.recipients.values()].find(
        (recipient) =>
          recipient.accountId === auth.account.seed.id && recipient.externalRef === input.externalRef,
      );
      if (taken) {
        throw new SandboxError('recipient_conflict', {
          params: { field: 'externalRef', externalRef: input.externalRef, recipientId: taken.id },
        });
      }
      const recipient: RecipientRecord = {
        id: auth.env.ids.next('rcp'),
        accountId: auth.account.seed.id,
        externalRef: input.externalRef,
        name: input.name ?? null,
        email: input.email ?? null,
        locale: input.locale ?? null,
        archived: false,
        orderCount: 0,
        lastOrderAtMs: null,
        createdAtMs: nowMs,
        updatedAtMs: nowMs,
      };
      auth.env.recipients.set(recipient.id, recipient);
      return { status: 201, body: { data: recipientView(auth.env, recipient), meta: responseMeta(c) } };
    });
  });

  routes.get('/recipients/:id', function readRecipient(c) {
    const auth = requireScope(c, 'recipients:read');
    return sendResource(c, recipientView(auth.env, recipientOf(auth, c.req.param('id'))));
  });

  routes.patch('/recipients/:id', async function patchRecipient(c) {
    const auth = requireScope(c, 'recipients:write');
    const recipient = recipientOf(auth, c.req.param('id'));
    const patch = validate(RecipientPatchRequestSchema, await readJsonBody(c), 'body');
    if (patch.name !== undefined) recipient.name = patch.name;
    if (patch.email !== undefined) recipient.email = patch.email;
    if (patch.locale !== undefined) recipient.locale = patch.locale;
    if (patch.archived !== undefined) recipient.archived = patch.archived;
    recipient.updatedAtMs = state.now();
    return sendResource(c, recipientView(auth.env, recipient));
  });

  return routes;
}
