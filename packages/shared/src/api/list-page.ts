/**
 * @module
 * How every list of the partner API pages: `?limit=` (default 25, at most 100) and the opaque `?cursor=` of the
 * page before, answered as `{ data: [...], nextCursor, meta }` — newest first, `nextCursor` null on the last
 * page. A cursor is a position (keyset), not an offset: items that arrive while a partner pages never shift it.
 */
import { z } from 'zod';
import { ApiMetaSchema } from './common';

/** How many items a page holds unless `limit` says otherwise, and the most it may ask. */
export const LIST_PAGE_LIMITS = { default: 25, max: 100 } as const;

/** The longest cursor the BFF writes (a cursor is an opaque string: pass back exactly what was answered). */
export const LIST_CURSOR_MAX_LENGTH = 512;

/** `?limit=&cursor=` of every list (query values arrive as strings). */
export const ListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(LIST_PAGE_LIMITS.max).default(LIST_PAGE_LIMITS.default),
  cursor: z.string().min(1).max(LIST_CURSOR_MAX_LENGTH).optional(),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

/** `{ data: T[], nextCursor, meta }`: one page of a list; `nextCursor` is null when nothing follows. */
export function listPageEnvelope<T extends z.ZodType>(item: T) {
  return z.strictObject({
    data: z.array(item),
    /** Pass as `?cursor=` (with the same filters) for the next page; null on the last page. */
    nextCursor: z.string().min(1).max(LIST_CURSOR_MAX_LENGTH).nullable(),
    meta: ApiMetaSchema,
  });
}
