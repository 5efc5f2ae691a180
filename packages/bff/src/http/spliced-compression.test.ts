/**
 * A head compressed once and closed by many tails: each body decodes, with Node's decoders, to the head and
 * that tail, in brotli and gzip alike; a tail too long for one closing block is refused.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { closeCompressed, MAX_TAIL_BYTES, openCompressed } from './spliced-compression';

const HEAD = Buffer.from(
  `{"data":${JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ code: `C${i}`, name: `Country ${i}` })))},"meta":{"requestId":"`,
);

describe.each(['br', 'gzip'] as const)('%s', (coding) => {
  const decode = coding === 'br' ? brotliDecompressSync : gunzipSync;

  it('decodes to the head and each tail, the head compressed once', async () => {
    const open = await openCompressed(coding, HEAD);
    expect(open.head.length).toBeLessThan(HEAD.length / 5);
    for (const tail of ['req_1", "apiVersion":"x"}}', 'é', 'x'.repeat(MAX_TAIL_BYTES)]) {
      const bytes = Buffer.from(tail);
      const body = Buffer.concat([open.head, ...closeCompressed(open, bytes)]);
      expect(decode(body).equals(Buffer.concat([HEAD, bytes])), `${bytes.length} bytes`).toBe(true);
    }
  });

  it('refuses an empty tail and one longer than a closing block carries', async () => {
    const open = await openCompressed(coding, HEAD);
    expect(() => closeCompressed(open, Buffer.alloc(0))).toThrow(RangeError);
    expect(() => closeCompressed(open, Buffer.alloc(MAX_TAIL_BYTES + 1))).toThrow(RangeError);
  });
});
