/**
 * @module
 * Resource ids and secrets from a seeded stream: the same seed and the same sequence of calls give the
 * same ids, so a test run can be replayed.
 */
import { createPrng, type Prng } from '../catalog/prng';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const UPPER = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** Makes ids like `ord_4k2x9…` and secret tokens for one environment. */
export class IdFactory {
  readonly #rng: Prng;

  constructor(seed: number, stream: string) {
    this.#rng = createPrng(seed, `ids:${stream}`);
  }

  /** A fresh id with a prefix (`ord`, `qte`, `esim`, …) and 20 random characters. */
  next(prefix: string): string {
    return `${prefix}_${this.chars(ALPHABET, 20)}`;
  }

  /** A string of `length` characters from `alphabet`. */
  chars(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.#rng.int(0, alphabet.length - 1)];
    return out;
  }

  /** Decimal digits. */
  digits(length: number): string {
    return this.chars('0123456789', length);
  }

  /** Upper-case letters and digits without look-alikes (activation codes). */
  code(length: number): string {
    return this.chars(UPPER, length);
  }

  /** A float in [0, 1). */
  random(): number {
    return this.#rng.next();
  }
}
