/**
 * @module
 * Opaque page cursors: base64url JSON `{ q, s, o }` (query hash, snapshot version, offset) signed with an
 * HMAC. A cursor sent with another normalized query is `cursor_invalid`; one cut from an older snapshot is
 * `cursor_expired`.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { SandboxError } from './sandbox-error';

/** What a cursor is bound to. */
export interface CursorBinding {
  /** The normalized query: resource, account, environment and every filter except `cursor` and `limit`. */
  query: string;
  /** The snapshot version the listing was cut from (the catalog version; 0 for append-only lists). */
  snapshot: number;
}

interface CursorPayload {
  q: string;
  s: number;
  o: number;
}

function queryHash(query: string): string {
  return createHash('sha256').update(query).digest('base64url').slice(0, 22);
}

function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url');
}

/** Builds the normalized query string of a listing from its fixed parts and filters (sorted, unset dropped). */
export function normalizedQuery(
  resource: string,
  scope: string,
  filters: Record<string, string | number | null | undefined>,
): string {
  const parts = Object.entries(filters)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== null)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`);
  return `${resource}?${scope}&${parts.join('&')}`;
}

/** Issues the cursor of the page that starts at `offset`. */
export function encodeCursor(secret: string, binding: CursorBinding, offset: number): string {
  const payload: CursorPayload = { q: queryHash(binding.query), s: binding.snapshot, o: offset };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(secret, body)}`;
}

/** Reads a cursor back to its offset, or throws `cursor_invalid` / `cursor_expired`. */
export function decodeCursor(secret: string, cursor: string, binding: CursorBinding): number {
  const invalid = (reason: string) =>
    new SandboxError('cursor_invalid', { params: { field: 'cursor', reason } });
  const [body, signature, extra] = cursor.split('.');
  if (!body || !signature || extra !== undefined) throw invalid('malformed');
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid('signature');
  let payload: CursorPayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
  } catch (cause) {
    throw new SandboxError('cursor_invalid', { params: { field: 'cursor', reason: 'malformed' }, cause });
  }
  if (typeof payload.o !== 'number' || typeof payload.s !== 'number' || typeof payload.q !== 'string') {
    throw invalid('malformed');
  }
  if (payload.q !== queryHash(binding.query)) throw invalid('query_mismatch');
  if (payload.s !== binding.snapshot) {
    throw new SandboxError('cursor_expired', {
      params: { field: 'cursor', snapshot: payload.s, currentSnapshot: binding.snapshot },
    });
  }
  return payload.o;
}

/** One page of a list, with the cursor of the next page (null on the last page). */
export interface PageSlice<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** Cuts one page out of a full, stably ordered list. */
export function paginate<T>(
  items: readonly T[],
  options: { secret: string; binding: CursorBinding; cursor: string | undefined; limit: number },
): PageSlice<T> {
  const offset = options.cursor ? decodeCursor(options.secret, options.cursor, options.binding) : 0;
  const end = Math.min(items.length, offset + options.limit);
  const hasMore = end < items.length;
  return {
    items: items.slice(offset, end),
    hasMore,
    nextCursor: hasMore ? encodeCursor(options.secret, options.binding, end) : null,
  };
}
