/**
 * @module
 * What every answer to bad input must be: a well-formed error envelope with a 4xx status, or a valid success
 * — never a 5xx, a stack trace, an answer without a body, or an error envelope that fails the schema.
 */
import type { z } from 'zod';
import type { RawAnswer } from '../harness/raw-http';

/** A stack frame or an error's class name in a body: internals leaking out. */
const STACK_TRACE =
  /\bat .+\.(?:ts|js|mjs|cjs):\d+|\b(?:TypeError|RangeError|SyntaxError|ReferenceError)\b|node:internal/;

export interface VerdictOptions {
  /** The error envelope of the server (the BFF's or the contract's). */
  envelope: z.ZodType;
  /** The success body's schema, when the endpoint answers JSON. */
  success?: z.ZodType | undefined;
  method: string;
  /** A page for people (the hosted delivery page): its refusals are HTML pages, not envelopes. */
  htmlPage?: boolean;
}

/** Why `answer` breaks the rule, or undefined when it keeps it. */
export function verdict(answer: RawAnswer, options: VerdictOptions): string | undefined {
  const { status } = answer;
  if (status >= 500) return `status ${status}: ${answer.text.slice(0, 200)}`;
  if (status < 200 || (status >= 300 && status < 400)) return `unexpected status ${status}`;
  if (STACK_TRACE.test(answer.text))
    return `stack trace or error class in the body: ${answer.text.slice(0, 200)}`;
  if (options.method === 'HEAD' || status === 204) return undefined;
  if (status >= 400 && options.htmlPage === true && answer.headers['content-type']?.startsWith('text/html')) {
    return answer.text.includes('<h1>') ? undefined : `status ${status}: an HTML refusal without a heading`;
  }
  if (status >= 400) {
    const parsed = options.envelope.safeParse(answer.json);
    if (!parsed.success)
      return `status ${status} without a valid error envelope: ${answer.text.slice(0, 200)}`;
    const requestId = (answer.json as { meta: { requestId: string } }).meta.requestId;
    // A replay of a kept refusal is the first answer, with the first request's id in its envelope.
    const replayed = answer.headers['idempotent-replayed'] === 'true';
    if (
      !replayed &&
      answer.headers['x-request-id'] !== undefined &&
      answer.headers['x-request-id'] !== requestId
    )
      return 'the envelope’s requestId differs from X-Request-Id';
    return undefined;
  }
  if (options.success !== undefined) {
    const parsed = options.success.safeParse(answer.json);
    if (!parsed.success)
      return `status ${status} with a body its schema refuses: ${answer.text.slice(0, 200)}`;
  }
  return undefined;
}
