/**
 * @module
 * The widget's starts (page views) per client address, counted in this instance's memory: a start writes
 * nothing to the store, so the first request of every page view costs no round trip and no write, whichever
 * store the BFF runs on. Each instance counts its own share: with `n` instances a client gets at most `n` times
 * `limits.sessionsPerIpPerMinute` starts a minute — a ceiling against a flood of page views, which hold nothing
 * and cost the partner nothing. Sessions, which lead to quotes and held money, stay counted in the store, across
 * instances.
 *
 * The counts are a sketch, not a map: per widget and minute (of the clock), two rows of counters, an address
 * counting in one cell of each (two different hashes of it), its count the smaller of the two, and a start
 * raising a cell only as far as that count (conservative update). Memory is fixed (256 KB a widget), each start
 * costs two cells whatever the number of addresses, and nothing is evicted, so a flood from ever new addresses
 * neither slows the count nor lets an address out of it. A count is never below the truth: a flooding address is
 * always refused. It may be above it when both of an address's cells are shared with busy addresses: at the
 * default limit of 30, not before hundreds of thousands of distinct addresses start on one instance in a minute
 * (a test holds 1,000 travellers' first starts among 200,000 others').
 *
 * A start answered from the answer cache (`http/answer-cache.ts`, before the app) is counted here too, from the
 * raw request: the address is read as the app's `clientAddress` middleware reads it (trusted proxy hops, an IPv6
 * client by its /64).
 */
import { randomFillSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { clientIp, limitedAddress } from './client-ip';

const WINDOW_MS = 60_000;
/** Cells per row (a power of two). */
const CELL_BITS = 15;
const CELLS = 1 << CELL_BITS;

/** What the limit reads of a widget (its runtime, without this layer importing it). */
export interface StartingWidget {
  config: { id: string; limits: { sessionsPerIpPerMinute: number } };
}

/** One start counted: whether it is within the limit, and when the window ends. */
export interface StartTaken {
  allowed: boolean;
  /** The address's starts in this window, this one included (never fewer than the truth). */
  count: number;
  limit: number;
  windowMs: number;
  resetInMs: number;
}

/** One widget's counts in one window. */
interface Sketch {
  window: number;
  first: Uint32Array;
  second: Uint32Array;
}

/**
 * Two 32-bit FNV-1a hashes of `text` from the offset bases `seeds` (random per instance), each reduced to a cell:
 * the first in the high bits of the answer, the second in its low {@link CELL_BITS} (one number, nothing allocated
 * per start). With fixed bases anyone could work out offline which addresses share a traveller's cells, and lock
 * that traveller out by starting from two of them (one raising each cell): a /48 of IPv6 holds enough of both.
 */
function cellsOf(text: string, seeds: Uint32Array): number {
  let first = seeds[0] as number;
  let second = seeds[1] as number;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x01000193);
  }
  return (((first >>> 0) & (CELLS - 1)) << CELL_BITS) | (((second >>> 0) >>> 14) & (CELLS - 1));
}

/** The starts' counter of one app. */
export class StartLimit {
  readonly #sketches = new Map<string, Sketch>();
  readonly #trustedProxyHops: number;
  readonly #now: () => number;
  /** The hashes' offset bases: random, so that which addresses share a cell differs by instance and start. */
  readonly #seeds = randomFillSync(new Uint32Array(2));

  constructor(options: { trustedProxyHops: number; now?: (() => number) | undefined }) {
    this.#trustedProxyHops = options.trustedProxyHops;
    this.#now = options.now ?? Date.now;
  }

  /** Count one start of `widget` from `address` (a limited address: `limitedAddress(clientIp)`). */
  take(widget: StartingWidget, address: string): StartTaken {
    const limit = widget.config.limits.sessionsPerIpPerMinute;
    const now = this.#now();
    const window = Math.floor(now / WINDOW_MS);
    let sketch = this.#sketches.get(widget.config.id);
    if (sketch === undefined) {
      sketch = { window, first: new Uint32Array(CELLS), second: new Uint32Array(CELLS) };
      this.#sketches.set(widget.config.id, sketch);
    } else if (sketch.window !== window) {
      sketch.window = window;
      sketch.first.fill(0);
      sketch.second.fill(0);
    }
    const cells = cellsOf(address, this.#seeds);
    const first = cells >>> CELL_BITS;
    const second = cells & (CELLS - 1);
    const inFirst = sketch.first[first] ?? 0;
    const inSecond = sketch.second[second] ?? 0;
    const count = Math.min(inFirst, inSecond) + 1;
    if (inFirst < count) sketch.first[first] = count;
    if (inSecond < count) sketch.second[second] = count;
    return {
      allowed: count <= limit,
      count,
      limit,
      windowMs: WINDOW_MS,
      resetInMs: (window + 1) * WINDOW_MS - now,
    };
  }

  /** The limited client address of a raw request, as the app's middleware reads it. */
  addressOf(request: IncomingMessage): string {
    const forwardedFor = request.headers['x-forwarded-for'];
    return limitedAddress(
      clientIp({
        socket: request.socket.remoteAddress,
        forwardedFor: Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor,
        trustedProxyHops: this.#trustedProxyHops,
      }),
    );
  }
}
