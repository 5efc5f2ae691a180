/**
 * @module
 * Conditional reads: whether a request's `If-None-Match` already names the representation it would get, so
 * that it is answered `304 Not Modified` without a body.
 */
import type { Context } from 'hono';

/**
 * True when the request's `If-None-Match` is `*` or names `etag` (weak comparison: `W/"x"` names `"x"`).
 *
 * @example
 * if (notModified(c, view.etag)) return answerBody(c, null, 304, { ETag: view.etag });
 */
export function notModified(c: Context, etag: string): boolean {
  const header = c.req.header('If-None-Match');
  if (header === undefined) return false;
  const wanted = etag.replace(/^W\//, '');
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === wanted);
}
