/**
 * @module
 * The `Retry-After` of the BFF's answers as its API's clients read it (the widget, the partner SDK). A module of
 * its own, without schemas: the widget's first screen takes this function and nothing else of the API's modules.
 */

/** A `Retry-After` header's delay in seconds (the BFF sends whole seconds); null when absent or not a delay. */
export function retryAfterSecondsOf(header: string | null): number | null {
  return header !== null && /^\d+$/.test(header.trim()) ? Number(header) : null;
}
