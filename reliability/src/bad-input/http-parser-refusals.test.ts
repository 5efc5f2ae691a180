/**
 * Requests that Node's HTTP parser refuses before the app sees them (headers too large, a malformed request
 * line, a header name with a space, a control character in a header value) still answer the BFF's error
 * envelope with a 4xx and a request id, not Node's bodiless default.
 */
import { ApiErrorEnvelopeSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../harness/bff-testing';
import { sendRaw } from '../harness/raw-http';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('requests the HTTP parser refuses', () => {
  it.each([
    [
      'headers over 16 KB',
      { method: 'GET', target: '/healthz', headers: [['X-Pad', 'x'.repeat(20_000)] as const] },
      431,
    ],
    ['a request line without a target', { method: 'GET', target: '', headers: [] }, 400],
    [
      'a header name with a space',
      { method: 'GET', target: '/healthz', headers: [['Bad Header', '1'] as const] },
      400,
    ],
    [
      'a control character in a header value',
      { method: 'GET', target: '/healthz', headers: [['X-A', 'a\u0001b'] as const] },
      400,
    ],
    ['a space in the target', { method: 'GET', target: '/v1/destinations /x', headers: [] }, 400],
  ])('%s: the error envelope with %#', async (_name, request, status) => {
    const answer = await sendRaw(stack.server.port, request);
    expect(answer.status).toBe(status);
    const envelope = ApiErrorEnvelopeSchema.parse(answer.json);
    expect(envelope.error.code).toBe('validation_failed');
    expect(answer.headers['x-request-id']).toBe(envelope.meta.requestId);
    expect(answer.headers['cache-control']).toBe('no-store');
  });
});
