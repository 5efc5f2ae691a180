/**
 * @module
 * HTTP reads that keep an answer's bytes as they were sent (Node's `http` does not decode `Content-Encoding`,
 * unlike `fetch`), and the decoding a client does, for the tests of compressed answers.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** An answer as it left the server: its status, headers and undecoded bytes. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** `method path` with `headers`, its body left as sent. */
export function fetchRaw(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${baseUrl}${path}`, { method, headers, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }),
      );
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The bytes a client reads once it has undone the answer's `Content-Encoding` (br, gzip or none). */
export function decodedBody(answer: RawAnswer): Buffer {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.body);
  if (coding === 'gzip') return gunzipSync(answer.body);
  if (coding !== undefined) throw new Error(`unexpected Content-Encoding: ${String(coding)}`);
  return answer.body;
}
