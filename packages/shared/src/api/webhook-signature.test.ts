/**
 * The webhook signature scheme against an independent HMAC (node:crypto), as docs/webhooks.md states it: a
 * signature verifies only for its body, its secret (or one of several) and within the tolerance.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkWebhookSignature, parseWebhookSignature, signWebhook } from './webhook-signature';

const SECRET = 'whsec_test_secret';
const BODY = '{"id":"evt_1","type":"checkout.completed","note":"ünïcode"}';
const T = 1_763_806_867;
const documented = (secret: string, body: string, t: number) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

describe('webhook signature', () => {
  it('signs as the documented HMAC-SHA256 over "<t>.<raw body>"', async () => {
    expect(await signWebhook(SECRET, BODY, T)).toBe(documented(SECRET, BODY, T));
    expect(await signWebhook(SECRET, new TextEncoder().encode(BODY), T)).toBe(documented(SECRET, BODY, T));
  });

  it('accepts the signature over the raw body, as text or bytes, under any of the rotated secrets', async () => {
    const header = documented(SECRET, BODY, T);
    for (const rawBody of [BODY, new TextEncoder().encode(BODY)]) {
      expect(await checkWebhookSignature({ header, rawBody, secrets: SECRET, nowSeconds: T + 299 })).toEqual({
        valid: true,
        timestampSeconds: T,
      });
    }
    const rotated = { header, rawBody: BODY, secrets: ['whsec_new', SECRET], nowSeconds: T };
    expect((await checkWebhookSignature(rotated)).valid).toBe(true);
  });

  it('refuses a changed body, another secret, an old or future timestamp, and malformed headers', async () => {
    const header = documented(SECRET, BODY, T);
    const check = (input: Partial<Parameters<typeof checkWebhookSignature>[0]>) =>
      checkWebhookSignature({ header, rawBody: BODY, secrets: SECRET, nowSeconds: T, ...input });
    const refused = (reason: string) => ({ valid: false, reason });
    expect(await check({ rawBody: BODY.replace('evt_1', 'evt_2') })).toEqual(refused('signature_mismatch'));
    expect(await check({ secrets: ['whsec_other'] })).toEqual(refused('signature_mismatch'));
    expect(await check({ secrets: [] })).toEqual(refused('signature_mismatch'));
    const signedWithNothing = documented('', BODY, T);
    expect(await check({ header: signedWithNothing, secrets: '' })).toEqual(refused('signature_mismatch'));
    expect(await check({ nowSeconds: T + 301 })).toEqual(refused('timestamp_outside_tolerance'));
    expect(await check({ nowSeconds: T - 301 })).toEqual(refused('timestamp_outside_tolerance'));
    expect(await check({ nowSeconds: T + 3_600, toleranceSeconds: 7_200 })).toEqual({
      valid: true,
      timestampSeconds: T,
    });
    expect(await check({ header: undefined })).toEqual(refused('signature_missing'));
    expect(await check({ header: `t=${T}` })).toEqual(refused('signature_malformed'));
    expect(await check({ header: header.replace(`t=${T}`, 't=soon') })).toEqual(
      refused('signature_malformed'),
    );
    expect(await check({ header: `${header.slice(0, -2)}` })).toEqual(refused('signature_malformed'));
  });

  it('reads every v1 of a header (a sender rotating its secret may sign twice)', () => {
    const other = documented('whsec_other', BODY, T).split(',')[1];
    const parsed = parseWebhookSignature(`${documented(SECRET, BODY, T)}, ${other}, v0=abc`);
    expect(parsed?.timestampSeconds).toBe(T);
    expect(parsed?.signatures).toHaveLength(2);
  });
});
