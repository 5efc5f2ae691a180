/**
 * @module
 * The widget's start request, sent by the element the moment it connects — while the app's code is still on
 * its way — and handed to the app's API client, which reads the answer as if it had asked itself: on a slow
 * phone the start no longer waits for the app chunk, and the catalog behind it comes a round trip sooner.
 * Part of the loader (`widget.js`), so it stays small and imports nothing: the client does all the reading,
 * retrying and errors. Its address is the one `ApiClient.start` asks for (`early-start.test.ts` holds the two
 * together).
 */

/** A start request already sent, and the `fetch` that hands its answer to the client. */
export interface EarlyStart {
  /**
   * Answers a GET of the start's address with the early answer, once; sends every other request (and the
   * start again if the early one failed, so that the client's own retries and errors apply).
   */
  fetch: typeof fetch;
  /** Cancels the request (the element left the page). */
  abort(): void;
}

/** Sends the start of `widgetId` on the BFF at `apiBase`, as the client would; null where it cannot. */
export function sendStartEarly(apiBase: string, widgetId: string): EarlyStart | null {
  if (!widgetId || typeof fetch !== 'function') return null;
  const url = `${apiBase.replace(/\/+$/, '')}/v1/widgets/${encodeURIComponent(widgetId)}/start`;
  const controller = new AbortController();
  let answer: Promise<Response> | null = fetch(url, {
    headers: { Accept: 'application/json' },
    credentials: 'omit',
    signal: controller.signal,
  });
  // Not taken (the app asked for another widget, or never loaded): its failure is nobody's.
  answer.catch(() => undefined);
  return {
    fetch(input, init) {
      const taken = String(input) === url && (init?.method ?? 'GET') === 'GET' ? answer : null;
      if (!taken) return globalThis.fetch(input, init);
      answer = null;
      return taken.catch(() => globalThis.fetch(input, init));
    },
    abort: () => controller.abort(),
  };
}
