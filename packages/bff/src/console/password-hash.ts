/**
 * @module
 * Console passwords, hashed with scrypt (node:crypto), salted per user: scrypt is memory-hard — each guess
 * needs N·r·128 bytes (32 MiB at N = 2^15, r = 8) as well as the time, so a copy of the store cannot be
 * tried against a dictionary on GPUs or ASICs at the rate a plain or iterated hash allows. The parameters are
 * written into the hash (`scrypt$15$8$1$<salt>$<key>`), so that a later release may raise them and still verify
 * the hashes kept. Hashing runs on libuv's thread pool: the event loop serves other requests meanwhile.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** The cost: N = 2^15, r = 8, p = 1 (OWASP's scrypt minimum is N = 2^17 at r = 8 … N = 2^13; 2^15 is between). */
const LOG_N = 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  return new Promise((resolve, reject) => {
    // The default `maxmem` (32 MiB) is exactly what these parameters need, and scrypt wants a little more.
    scrypt(password, salt, KEY_BYTES, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error === null ? resolve(key) : reject(error),
    );
  });
}

/** The hash to keep of `password`: its parameters, salt and derived key. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, LOG_N, BLOCK_SIZE, PARALLELISM);
  return [
    'scrypt',
    LOG_N,
    BLOCK_SIZE,
    PARALLELISM,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** Whether `password` is the one `hash` was made from (compared in constant time); false for a damaged hash. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const [kind, logN, r, p, salt, key] = hash.split('$');
  const numbers = [logN, r, p].map(Number);
  if (kind !== 'scrypt' || salt === undefined || key === undefined) return false;
  if (!numbers.every((value) => Number.isInteger(value) && value > 0 && value < 32)) return false;
  const [n = 0, blocks = 0, parallel = 0] = numbers;
  const expected = Buffer.from(key, 'base64url');
  const derived = await derive(password, Buffer.from(salt, 'base64url'), n, blocks, parallel);
  return expected.length === derived.length && timingSafeEqual(expected, derived);
}

let decoy: Promise<string> | null = null;

/**
 * A hash of no one's password, verified when a sign-in names no user: the refusal then takes as long as a wrong
 * password of a real user, so the time does not tell which names exist. Made once, at the first use.
 */
export function decoyPasswordHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('base64url'));
  return decoy;
}
