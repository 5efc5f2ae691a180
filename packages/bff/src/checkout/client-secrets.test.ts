/**
 * Checkout client secrets: derived (never stored), named by the key that made them, and still accepted after
 * the root secret is rotated while the previous root stays listed — also those issued before key ids existed.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveKey } from '../security/key-ring';
import { createCheckoutSecrets } from './checkout-access';

const id = 'chk_0123456789abcdef';

describe('client secrets', () => {
  const root = randomBytes(48);

  it('are recomputed alike on every instance and carry the key id', () => {
    const secret = createCheckoutSecrets([root]).secretFor(id);
    expect(secret).toMatch(
      new RegExp(`^cs_${deriveKey(root, 'checkout-client-secret').kid}_[A-Za-z0-9_-]{43}$`),
    );
    expect(createCheckoutSecrets(Buffer.from(root)).secretFor(id)).toBe(secret);
    expect(createCheckoutSecrets([root]).matches(id, secret)).toBe(true);
    expect(createCheckoutSecrets([root]).matches('chk_another000000', secret)).toBe(false);
    expect(createCheckoutSecrets([root]).matches(id, `${secret.slice(0, -1)}A`)).toBe(secret.endsWith('A'));
    expect(createCheckoutSecrets([root]).matches(id, undefined)).toBe(false);
  });

  it('outlive a rotation while the previous root is listed, and only then', () => {
    const before = createCheckoutSecrets([root]).secretFor(id);
    const next = randomBytes(48);
    const rotated = createCheckoutSecrets([next, root]);
    expect(rotated.matches(id, before)).toBe(true);
    expect(rotated.secretFor(id)).not.toBe(before);
    expect(rotated.matches(id, rotated.secretFor(id))).toBe(true);
    expect(createCheckoutSecrets([next]).matches(id, before)).toBe(false);
  });

  it('accept those of the release before (no key id) under any listed root', () => {
    const unnamed = `cs_${createHmac('sha256', root).update(`checkout-client-secret:${id}`).digest('base64url')}`;
    expect(createCheckoutSecrets([randomBytes(48), root]).matches(id, unnamed)).toBe(true);
    expect(createCheckoutSecrets([randomBytes(48)]).matches(id, unnamed)).toBe(false);
  });
});

describe('what a checkout keeps of the address that opened it', () => {
  it('is the same on every instance of one root, and nothing a dictionary of addresses finds without it', () => {
    const root = randomBytes(48);
    const address = '198.51.100.7';
    const kept = createCheckoutSecrets([root]).openerOf(address);
    expect(createCheckoutSecrets([root]).openerOf(address)).toBe(kept);
    expect(createCheckoutSecrets([root]).openerOf('198.51.100.8')).not.toBe(kept);
    // Every unkeyed digest of the address a copy of the store could be tested against.
    for (const unkeyed of [address, `opened-from:${address}`]) {
      expect(kept).not.toContain(createHash('sha256').update(unkeyed).digest('base64url').slice(0, 16));
    }
    expect(createCheckoutSecrets([randomBytes(48)]).openerOf(address)).not.toBe(kept);
  });
});

describe('checkout ids made from a create key', () => {
  const root = randomBytes(48);
  const createKey = 'idempotency:session:abc:key-digest';

  it('are the same for every retry of one create, another for another create, and as long as a random id', () => {
    const id = createCheckoutSecrets([root]).checkoutIdFor(createKey);
    expect(id).toMatch(/^chk_[A-Za-z0-9_-]{22}$/);
    expect(createCheckoutSecrets([root]).checkoutIdFor(createKey)).toBe(id);
    expect(createCheckoutSecrets([root]).checkoutIdFor(`${createKey}x`)).not.toBe(id);
    expect(createCheckoutSecrets([randomBytes(48)]).checkoutIdFor(createKey)).not.toBe(id);
  });

  it('say that this BFF made them (under any listed root), and no other reference does', () => {
    const secrets = createCheckoutSecrets([root]);
    const id = secrets.checkoutIdFor(createKey);
    expect(secrets.madeCheckoutId(id)).toBe(true);
    expect(createCheckoutSecrets([randomBytes(48), root]).madeCheckoutId(id)).toBe(true);
    expect(createCheckoutSecrets([randomBytes(48)]).madeCheckoutId(id)).toBe(false);
    expect(secrets.madeCheckoutId(`chk_${randomBytes(16).toString('base64url')}`)).toBe(false);
    expect(secrets.madeCheckoutId('pos-till-42')).toBe(false);
    expect(secrets.madeCheckoutId(`${id.slice(0, -2)}${id.endsWith('AA') ? 'AB' : 'AA'}`)).toBe(false);
  });
});
