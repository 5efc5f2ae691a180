/**
 * @module
 * A manage token's own material: 128 random bits as lowercase base32, its SHA-256 (what the store keeps), and
 * the AES-GCM sealing that lets the current link of an eSIM be handed out again without the store seeing it.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { base32 } from '../security/base32';

/** 16 random bytes as 26 lowercase base32 characters: easy to read out, one case, no padding. */
export const newToken = (): string => base32(randomBytes(16)).toLowerCase();

/** The token's SHA-256, the only form of it the store keeps. */
export const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** `token` encrypted under `key` (AES-256-GCM): IV, tag and ciphertext, base64url. */
export function seal(key: Buffer, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The token {@link seal} sealed under `key`, or null when it was sealed under another key or altered. */
export function unseal(key: Buffer, sealed: string): string | null {
  try {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
