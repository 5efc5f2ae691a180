/**
 * @module
 * The harness's own requests while it prepares a load (sessions, quotes, checkouts): one call, its status,
 * content type, raw bytes and parsed JSON, failing loudly on an unexpected status.
 */

/** An answer as the harness reads it. */
export interface BenchAnswer {
  status: number;
  contentType: string;
  /** Every header of the answer, by lower-case name. */
  headers: Record<string, string>;
  bytes: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: the harness reads answers loosely; the BFF's tests check them.
  json: any;
}

/** Sends one request and checks that its status is `expect`. */
export async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; expect?: number } = {},
): Promise<BenchAnswer> {
  // The loads send no Accept-Encoding, so their answers are the bytes as they are: these must be the same bytes
  // (fetch would ask for gzip and decode it, leaving a Content-Encoding the bare routes would then copy).
  const headers: Record<string, string> = { 'Accept-Encoding': 'identity', ...init.headers };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get('content-type') ?? 'application/octet-stream';
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    json = undefined;
  }
  const expected = init.expect ?? (init.method === 'POST' ? 201 : 200);
  if (response.status !== expected) {
    throw new Error(
      `${init.method ?? 'GET'} ${url} answered ${response.status}: ${bytes.toString('utf8').slice(0, 300)}`,
    );
  }
  return { status: response.status, contentType, headers: Object.fromEntries(response.headers), bytes, json };
}
