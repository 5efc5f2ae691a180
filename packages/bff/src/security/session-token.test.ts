/**
 * Session tokens: issued and verified, and refused when tampered with, expired, re-signed or `alg: none`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { deriveKey } from './key-ring';
import { createSessionSigner } from './session-token';

const secret = randomBytes(32);
const subject = { widgetId: 'acme', origin: 'https://acme.com', environment: 'test' as const };

function reason(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('widget_session_invalid');
    return (error as ApiError).params.reason;
  }
  throw new Error('the token was accepted');
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('session tokens', () => {
  it('round-trips the claims, bound to widget, origin and environment, for at most 15 minutes', () => {
    const signer = createSessionSigner({ secret });
    const { token, claims } = signer.issue(subject);
    expect(signer.verify(token)).toEqual(claims);
    expect(claims).toMatchObject({ wid: 'acme', org: 'https://acme.com', env: 'test' });
    expect(claims.exp - claims.iat).toBe(900);
  });

  it('refuses a token past its expiry by one second', () => {
    let now = Date.now();
    const signer = createSessionSigner({ secret, ttlSeconds: 60, now: () => now });
    const { token } = signer.issue(subject);
    now += 59_000;
    expect(signer.verify(token).wid).toBe('acme');
    now += 1_000;
    expect(reason(() => signer.verify(token))).toBe('expired');
  });

  it('reads an ended token only within the grace it is asked with, and says it ended; verify stays strict', () => {
    let now = Date.now();
    const signer = createSessionSigner({ secret, ttlSeconds: 60, now: () => now });
    const { token, claims } = signer.issue(subject);
    expect(signer.verifyEnded(token, 3_600_000)).toEqual({ claims, ended: false });
    now += 61_000;
    expect(reason(() => signer.verify(token))).toBe('expired');
    expect(signer.verifyEnded(token, 3_600_000)).toEqual({ claims, ended: true });
    now += 3_600_000;
    expect(reason(() => signer.verifyEnded(token, 3_600_000))).toBe('expired');
    // The grace lets nothing else through: a tampered ended token is refused for its signature.
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const otherWidget = b64({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), wid: 'other' });
    expect(reason(() => signer.verifyEnded(`${header}.${otherWidget}.${signature}`, 3_600_000))).toBe(
      'signature',
    );
  });

  it('refuses tampering in the header, the payload and the signature', () => {
    const signer = createSessionSigner({ secret });
    const { token } = signer.issue(subject);
    // Verified once, the token is remembered by its exact text: what follows must not ride on that.
    expect(signer.verify(token).wid).toBe('acme');
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const otherWidget = b64({ ...claims, wid: 'other' });
    expect(reason(() => signer.verify(`${header}.${otherWidget}.${signature}`))).toBe('signature');
    const longer = b64({ ...claims, exp: claims.exp + 3600 });
    expect(reason(() => signer.verify(`${header}.${longer}.${signature}`))).toBe('signature');
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(reason(() => signer.verify(`${header}.${payload}.${flipped}`))).toBe('signature');
    const headerWithKid = b64({ alg: 'HS256', typ: 'JWT', kid: 'x' });
    expect(reason(() => signer.verify(`${headerWithKid}.${payload}.${signature}`))).toBe('key');
    const headerWithoutKid = b64({ alg: 'HS256', typ: 'JWT' });
    expect(reason(() => signer.verify(`${headerWithoutKid}.${payload}.${signature}`))).toBe('key');
    expect(reason(() => signer.verify(`${header}.${payload}`))).toBe('malformed');
    expect(reason(() => signer.verify('not a token'))).toBe('malformed');
    expect(reason(() => signer.verify(''))).toBe('malformed');
  });

  it('refuses a signature written another way that decodes to the same bytes', () => {
    const signer = createSessionSigner({ secret });
    const { token } = signer.issue(subject);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    // 32 bytes are 43 base64url characters: the last one carries 4 bits and 2 unused ones.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(signature.at(-1) as string);
    const twin = `${signature.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(twin, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    expect(reason(() => signer.verify(`${header}.${payload}.${twin}`))).toBe('signature');
    expect(signer.verify(token).wid).toBe('acme');
  });

  it('remembers a verified token without trusting it past its expiry, and keeps a bounded number', () => {
    let now = Date.now();
    const signer = createSessionSigner({ secret, ttlSeconds: 60, now: () => now });
    const tokens = Array.from({ length: 10_050 }, () => signer.issue(subject).token);
    for (const token of tokens) expect(signer.verify(token).env).toBe('test');
    // The first ones were forgotten at the bound and are verified again, the last ones remembered: all valid.
    expect(signer.verify(tokens[0] as string).wid).toBe('acme');
    expect(signer.verify(tokens.at(-1) as string).wid).toBe('acme');
    now += 60_000;
    expect(reason(() => signer.verify(tokens[0] as string))).toBe('expired');
    expect(reason(() => signer.verify(tokens.at(-1) as string))).toBe('expired');
  });

  it('refuses alg none and other algorithms, even with a valid-looking signature', () => {
    const signer = createSessionSigner({ secret });
    const { token } = signer.issue(subject);
    const [, payload, signature] = token.split('.') as [string, string, string];
    const none = b64({ alg: 'none', typ: 'JWT' });
    expect(reason(() => signer.verify(`${none}.${payload}.`))).toBe('malformed');
    expect(reason(() => signer.verify(`${none}.${payload}.${signature}`))).toBe('algorithm');
    const rs = b64({ alg: 'RS256', typ: 'JWT' });
    expect(reason(() => signer.verify(`${rs}.${payload}.${signature}`))).toBe('algorithm');
  });

  it('refuses a token signed with another secret, and one whose claims exceed 15 minutes', () => {
    const signer = createSessionSigner({ secret });
    const foreign = createSessionSigner({ secret: randomBytes(32) }).issue(subject).token;
    expect(reason(() => signer.verify(foreign))).toBe('key');
    // Correctly signed with the right key but claiming a day-long life: still refused.
    const { kid, key } = deriveKey(secret, 'session');
    const header = b64({ alg: 'HS256', typ: 'JWT', kid });
    const iat = Math.floor(Date.now() / 1000);
    const payload = b64({
      sid: 'a'.repeat(24),
      wid: 'acme',
      org: 'https://acme.com',
      env: 'test',
      iat,
      exp: iat + 86_400,
    });
    const signature = createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url');
    expect(reason(() => signer.verify(`${header}.${payload}.${signature}`))).toBe('lifetime');
    // The root secret itself is no key: the same token signed with it is refused.
    const withRoot = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
    expect(reason(() => signer.verify(`${header}.${payload}.${withRoot}`))).toBe('signature');
  });

  it('names its key in the header; after a rotation the previous root still verifies, and only it', () => {
    const before = createSessionSigner({ secret });
    const issued = before.issue(subject).token;
    const header = JSON.parse(Buffer.from(issued.split('.')[0] as string, 'base64url').toString());
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT', kid: deriveKey(secret, 'session').kid });
    const newRoot = randomBytes(48);
    const rotated = createSessionSigner({ secret: newRoot, previousSecrets: [secret] });
    expect(rotated.verify(issued).wid).toBe('acme');
    const fresh = rotated.issue(subject).token;
    expect(JSON.parse(Buffer.from(fresh.split('.')[0] as string, 'base64url').toString()).kid).toBe(
      deriveKey(newRoot, 'session').kid,
    );
    // Once the old root is dropped from the list, what it signed is refused.
    expect(reason(() => createSessionSigner({ secret: newRoot }).verify(issued))).toBe('key');
    expect(() => createSessionSigner({ secret: newRoot, previousSecrets: [randomBytes(31)] })).toThrow(
      /at least 32/,
    );
  });

  it('refuses short secrets and long lifetimes at construction', () => {
    expect(() => createSessionSigner({ secret: randomBytes(31) })).toThrow(/at least 32/);
    expect(() => createSessionSigner({ secret, ttlSeconds: 901 })).toThrow(/1\.\.900/);
  });
});
