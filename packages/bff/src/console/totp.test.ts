/**
 * The second factor's codes are RFC 6238's: its test vectors (SHA-1, the 20-byte ASCII secret) cut to 6 digits,
 * a neighbour step accepted, a spent step refused, and the enrolment URI an authenticator app reads.
 */
import { describe, expect, it } from 'vitest';
import { base32 } from '../security/base32';
import { matchTotp, otpauthUri, totpCode, totpStep } from './totp';

const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');

describe('TOTP', () => {
  it('computes the RFC 6238 test vectors (their last 6 digits)', () => {
    // RFC 6238, appendix B, SHA1: 94287082, 07081804, 14050471, 89005924, 69279037, 65353130.
    const vectors: [number, string][] = [
      [59, '287082'],
      [1111111109, '081804'],
      [1111111111, '050471'],
      [1234567890, '005924'],
      [2000000000, '279037'],
      [20000000000, '353130'],
    ];
    for (const [seconds, code] of vectors) expect(totpCode(RFC_SECRET, totpStep(seconds * 1000))).toBe(code);
  });

  it('accepts the step before and after, never one already spent', () => {
    const now = 1234567890 * 1000;
    const step = totpStep(now);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step - 1), now, null)).toBe(step - 1);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step + 1), now, null)).toBe(step + 1);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step - 2), now, null)).toBeNull();
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step), now, step)).toBeNull();
  });

  it('writes the enrolment URI with the secret in base32', () => {
    expect(base32(RFC_SECRET)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    const uri = new URL(otpauthUri(RFC_SECRET, 'eSIM Embed console', 'jane@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
  });
});
