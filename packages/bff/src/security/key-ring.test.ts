/**
 * The key ring: a key per purpose under each root secret, named by a key id, the first root signing.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveKey, purposeKeys } from './key-ring';

describe('key ring', () => {
  const root = randomBytes(48);

  it('derives one key per purpose, none of them the root, each with its own id', () => {
    const session = deriveKey(root, 'session');
    const clientSecret = deriveKey(root, 'checkout-client-secret');
    expect(session.key).toHaveLength(32);
    expect(session.key.equals(clientSecret.key)).toBe(false);
    expect(session.key.equals(root.subarray(0, 32))).toBe(false);
    expect(session.kid).toMatch(/^[0-9a-f]{8}$/);
    expect(session.kid).not.toBe(clientSecret.kid);
    // Derived, not random: every instance with the same root has the same keys.
    expect(deriveKey(Buffer.from(root), 'session')).toEqual(session);
  });

  it('signs with the first root and finds every root’s key by its id', () => {
    const previous = randomBytes(48);
    const keys = purposeKeys([root, previous], 'session');
    expect(keys.signing).toEqual(deriveKey(root, 'session'));
    expect(keys.byKid(deriveKey(previous, 'session').kid)).toEqual(deriveKey(previous, 'session').key);
    expect(keys.byKid(deriveKey(randomBytes(48), 'session').kid)).toBeUndefined();
    expect(keys.byKid(deriveKey(root, 'checkout-client-secret').kid)).toBeUndefined();
    expect(() => purposeKeys([], 'session')).toThrow(/no root secret/);
  });
});
