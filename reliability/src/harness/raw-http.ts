/**
 * @module
 * A raw HTTP/1.1 client over a TCP socket: sends exactly the bytes a hostile client would (invalid UTF-8 in
 * the path, headers and body, any content type, any method) and reads the answer, with a hard timeout so a
 * hung request is a failure rather than a stuck suite.
 */
import { connect } from 'node:net';

/** A request as bytes: the request target is sent as given (already percent-encoded or not). */
export interface RawRequest {
  method: string;
  target: string;
  /** Header values are written as latin1 bytes, so any byte 0x20–0xff may be sent. */
  headers: ReadonlyArray<readonly [string, string]>;
  body?: Buffer | undefined;
}

/** The answer: status, lower-cased headers, body bytes and text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
}

/** Send `request` to 127.0.0.1:`port`; rejects after `timeoutMs` (a hang) or when the connection fails. */
export async function sendRaw(port: number, request: RawRequest, timeoutMs = 5_000): Promise<RawAnswer> {
  const head = [
    `${request.method} ${request.target} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Connection: close',
    ...request.headers.map(([name, value]) => `${name}: ${value}`),
  ];
  if (request.body !== undefined) head.push(`Content-Length: ${request.body.byteLength}`);
  const bytes = Buffer.concat([
    Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'),
    request.body ?? Buffer.alloc(0),
  ]);
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host: '127.0.0.1' });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms: ${request.method} ${request.target}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      // A server may answer and close before it read all of a huge body: keep the answer it sent.
      if (chunks.length > 0) resolve(Buffer.concat(chunks));
      else reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    // No half-close: Node's HTTP server aborts a request whose client has ended its side of the socket.
    socket.write(bytes);
  });
  return parseAnswer(raw, request.method);
}

function parseAnswer(raw: Buffer, method: string): RawAnswer {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`not an HTTP answer (${raw.byteLength} bytes)`);
  const [statusLine = '', ...headerLines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) throw new Error(`not an HTTP status line: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(split + 4);
  if (method === 'HEAD') body = Buffer.alloc(0);
  else if (headers['transfer-encoding']?.toLowerCase() === 'chunked') body = dechunk(body);
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, headers, body, text, json };
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
