/**
 * @module
 * Handling each of the BFF's webhook events once although it may arrive more than once (delivery is at least
 * once, docs/webhooks.md). Verifying them is the partner SDK's (`@esim-embed/partner`).
 */

/** Remembers event ids: delivery is at least once, handling must be once. */
export function createEventDeduplicator(): (eventId: string) => boolean {
  // A real partner keeps the ids in its database (a unique key); a day's worth is enough: retries stop then.
  const seen = new Set<string>();
  return function firstTime(eventId) {
    if (seen.has(eventId)) return false;
    seen.add(eventId);
    return true;
  };
}
