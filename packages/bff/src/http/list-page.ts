/**
 * @module
 * The pages of the partner API's lists (`list-page.ts` in shared says their shape): the opaque cursor — a
 * keyset position `(score, id)` of the last item answered, newest first — and the answer. A cursor is signed
 * with the partner secret that asked for it and bound to the list and its filters, so a cursor of another
 * partner, of another list or filter, or a forged or damaged one, is refused with 400 before anything is read.
 */
import { timingSafeEqual } from 'node:crypto';
import { API_VERSION, LIST_CURSOR_MAX_LENGTH } from '@esim-embed/shared';
import type { Context } from 'hono';
import { ApiError } from '../errors';
import { hmacSha256 } from '../security/hmac';
import type { ListPage, ListPosition } from '../store/index-pages';
import { answerJson } from './answer';
import type { AppEnv } from './app-env';

/**
 * What a cursor is bound to: the secret of the partner that paged (its HMAC key, never written into the
 * cursor) and the list with its filters (any stable text: a change of filter makes earlier cursors invalid).
 */
export interface CursorBinding {
  partnerSecret: string;
  list: string;
}

const SIGNATURE_BYTES = 16;

const signature = (binding: CursorBinding, payload: string) =>
  hmacSha256(Buffer.from(binding.partnerSecret), `list-cursor\n${binding.list}\n${payload}`).subarray(
    0,
    SIGNATURE_BYTES,
  );

/** The cursor that continues after `position`. */
export function encodeListCursor(position: ListPosition, binding: CursorBinding): string {
  const payload = Buffer.from(JSON.stringify([position.score, position.id])).toString('base64url');
  return `${payload}.${signature(binding, payload).toString('base64url')}`;
}

const invalidCursor = () =>
  new ApiError('validation_failed', { status: 400, params: { field: 'cursor', reason: 'invalid' } });

/**
 * The position a cursor names; `validation_failed` (400, `field: cursor`) when it was not made by this BFF for
 * this partner, list and filters.
 */
export function decodeListCursor(cursor: string, binding: CursorBinding): ListPosition {
  if (cursor.length > LIST_CURSOR_MAX_LENGTH) throw invalidCursor();
  const [payload = '', signed = '', ...rest] = cursor.split('.');
  const given = Buffer.from(signed, 'base64url');
  if (rest.length > 0 || given.length !== SIGNATURE_BYTES) throw invalidCursor();
  if (!timingSafeEqual(given, signature(binding, payload))) throw invalidCursor();
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const [score, id] = Array.isArray(position) ? position : [];
  if (typeof score !== 'number' || !Number.isFinite(score) || typeof id !== 'string') throw invalidCursor();
  return { score, id };
}

/**
 * Answer the page that follows `cursor` (the first page when none is given): the cursor checked against
 * `binding` before anything is read, the page read by `read` from the position it names, and answered as
 * `{ data, nextCursor, meta }` with the cursor that continues it, never cached (it changes with every sale).
 */
export async function answerPageAfter<T, E extends AppEnv = AppEnv>(
  c: Context<E>,
  binding: CursorBinding,
  cursor: string | undefined,
  read: (after: ListPosition | null) => Promise<ListPage<T>>,
): Promise<Response> {
  const after = cursor === undefined ? null : decodeListCursor(cursor, binding);
  const page = await read(after);
  return answerJson(
    c,
    {
      data: page.items,
      nextCursor: page.next === null ? null : encodeListCursor(page.next, binding),
      meta: { requestId: c.get('requestId'), apiVersion: API_VERSION },
    },
    200,
    { 'Cache-Control': 'no-store' },
  );
}
