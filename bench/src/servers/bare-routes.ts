/**
 * @module
 * What the harness tells the bare server (`bare-server.ts`) to answer: imported by both, so it has no
 * side effect of its own.
 */

/** A route to answer and the bytes to answer it with. */
export interface BareRoute {
  method: 'GET' | 'POST';
  /** A Hono path pattern (`/v1/destinations/:code/plans`). */
  path: string;
  status: number;
  contentType: string;
  /** The body, base64. */
  body: string;
  /** The BFF answer's headers, but those Node's HTTP server writes itself (date, length, connection). */
  headers: Record<string, string>;
}

/** The path prefix of the routes that answer with the BFF's headers too. */
export const WITH_HEADERS = '/with-headers';
