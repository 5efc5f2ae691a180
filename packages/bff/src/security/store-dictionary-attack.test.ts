/**
 * A copy of the store names no traveller. Travellers from several addresses (IPv4 and IPv6) buy with their e-mail
 * addresses through a BFF on the embedded store and on Redis, behind one trusted proxy; a partner's server searches
 * its checkouts by e-mail, and someone sends a wrong partner secret. Then whoever holds a copy of the store — the
 * SQLite files' bytes, or every key and value a Redis `SCAN` reaches — and the `export-state` file, and a dictionary
 * of every e-mail address and client address used, tries to reverse what the store keeps: by plain SHA-256 in every
 * encoding, and by SHA-256 salted with everything the config says (widgets, environment, the upstream's address,
 * the funding ledgers' names) as the release before salted the funding ledger's holders. Nothing is found, and no
 * client address is there as such; the partner's search by e-mail still finds every checkout.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import {
  call,
  openWidget,
  PARTNER_SECRET,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  testClock,
  testConfig,
} from '../../testing/stack';
import { checkoutOnPage } from '../../testing/traveller-checkout';
import { createRedisStore } from '../store/redis-store';
import { openSqlite } from '../store/sqlite-engine';
import { DATABASE_FILE, openSqliteStore } from '../store/sqlite-store';
import { decodeValue } from '../store/sqlite-value-encoding';
import { runStateCommand } from '../store/state-transfer-command';
import type { Store } from '../store/store';
import { limitedAddress } from './client-ip';

/** Who buys: an e-mail address each, from addresses of both families (two from one IPv6 /64). */
const TRAVELLERS = [
  { email: 'ada.lovelace@example.com', address: '198.51.100.7' },
  { email: 'Grace.Hopper@Example.org', address: '203.0.113.66' },
  { email: 'alan.turing@example.net', address: '2001:db8:1:2::17' },
  { email: 'katherine.johnson@example.com', address: '2001:db8:1:2:aaaa::1' },
];
/** Where a wrong partner secret comes from. */
const PROBER = '192.0.2.44';

/** Every way a SHA-256 of `input` may be written into a key or a value, cut to the shortest length ever kept. */
function plainDigests(input: string): string[] {
  const digest = createHash('sha256').update(input).digest();
  return [digest.toString('hex'), digest.toString('base64'), digest.toString('base64url')].map((text) =>
    text.slice(0, 12),
  );
}

/** Every 12 characters in a row of `copy` that a digest's text could start with (hex, base64, base64url). */
function windowsOf(copy: string): Set<string> {
  const windows = new Set<string>();
  for (const [run] of copy.matchAll(/[A-Za-z0-9+/_-]{12,}/g))
    for (let at = 0; at + 12 <= run.length; at += 1) windows.add(run.slice(at, at + 12));
  return windows;
}

/**
 * The dictionary attack: each word of `dictionary`, as is and as the searches and limits normalize it, hashed
 * plainly and salted with every config value in `salts` the ways a release might join them; answers the words
 * whose digest `copy` holds.
 */
function reversed(copy: string, dictionary: readonly string[], salts: readonly string[]): string[] {
  const held = windowsOf(copy);
  const found: string[] = [];
  for (const word of dictionary) {
    const forms = new Set([word, word.trim().toLowerCase(), limitedAddress(word)]);
    const inputs = [...forms].flatMap((form) => [
      form,
      ...salts.flatMap((salt) => [
        `${salt}:${form}`,
        `${form}:${salt}`,
        `${salt}\n${form}`,
        `${salt}:address:${form}`,
        `${salt}:email:${form}`,
      ]),
    ]);
    if (inputs.some((input) => plainDigests(input).some((digest) => held.has(digest)))) found.push(word);
  }
  return found;
}

/** Every key and value of a Redis, as a `SCAN` and a read by type reach them. */
async function redisCopy(url: string): Promise<string> {
  const redis = new Redis(url);
  try {
    const parts: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        parts.push(key);
        const type = await redis.type(key);
        if (type === 'string') parts.push((await redis.get(key)) ?? '');
        else if (type === 'zset') parts.push(...(await redis.zrange(key, '0', '-1', 'WITHSCORES')));
        else if (type === 'hash') parts.push(...Object.entries(await redis.hgetall(key)).flat());
        else if (type === 'list') parts.push(...(await redis.lrange(key, 0, -1)));
        else if (type === 'set') parts.push(...(await redis.smembers(key)));
      }
    } while (cursor !== '0');
    return parts.join('\n');
  } finally {
    redis.disconnect();
  }
}

/** What `server.mjs export-state` writes for the store `env` names. */
async function exported(env: NodeJS.ProcessEnv): Promise<string> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  stdout.on('data', (chunk) => out.push(String(chunk)));
  stderr.resume();
  const code = await runStateCommand('export-state', env, { stdin: Readable.from(['']), stdout, stderr }, []);
  expect(code).toBe(0);
  return out.join('');
}

const root = mkdtempSync(join(tmpdir(), 'esim-dictionary-'));
let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe.each([
  {
    kind: 'embedded',
    open: () => openSqliteStore({ dataDir: join(root, 'data') }),
    /**
     * The database and its WAL, byte for byte, while the BFF runs — and each value inflated, as whoever holds the
     * copy would read it (most values are kept deflated: their bytes alone would show nothing).
     */
    copy: async () => {
      const files = readdirSync(join(root, 'data'))
        .filter((name) => name.startsWith(DATABASE_FILE))
        .map((name) => readFileSync(join(root, 'data', name)).toString('latin1'));
      const db = openSqlite(join(root, 'data', DATABASE_FILE), { readOnly: true });
      try {
        const values = db.prepare('SELECT value FROM entries').all();
        return [...files, ...values.map((row) => decodeValue(row.value))].join('\n');
      } finally {
        db.close();
      }
    },
    env: () => ({ ESIM_BFF_DATA_DIR: join(root, 'data') }),
  },
  {
    kind: 'Redis',
    open: (): Store => createRedisStore({ url: redis.url }),
    copy: () => redisCopy(redis.url),
    env: () => ({ ESIM_BFF_REDIS_URL: redis.url }),
  },
])('a copy of the $kind store and a dictionary', ({ open, copy, env }) => {
  let stack: Stack;
  let closed = false;
  const clock = testClock();
  /** The checkouts made, by the traveller's e-mail address. */
  const made = new Map<string, string[]>();

  beforeAll(async () => {
    stack = await startStack({
      store: open(),
      config: (sandboxUrl) => testConfig(sandboxUrl, { trustedProxyHops: 1 }),
      bffOptions: { now: clock.now },
    });
    for (const { email, address } of TRAVELLERS) {
      const from = { 'X-Forwarded-For': address };
      // An unpaid checkout (its hold's maker in the funding ledger) and a sale (its eSIM in the seller's list).
      for (const widgetId of ['shop-pay', 'shop']) {
        const page = await openWidget(stack.server.url, widgetId, SHOP_ORIGIN, from);
        made.set(email, [...(made.get(email) ?? []), await checkoutOnPage(page, { email })]);
      }
    }
    const wrong = await call(stack.server.url, '/v1/partner/checkouts', {
      headers: { [PARTNER_SECRET_HEADER]: `wrong-${PARTNER_SECRET}`, 'X-Forwarded-For': PROBER },
    });
    expect(wrong.status).toBe(401);
  });
  afterAll(async () => {
    if (!closed) await stack?.close();
  });

  it('finds every checkout of an e-mail address, whatever its case', async () => {
    for (const { email } of TRAVELLERS) {
      const listed = await call(
        stack.server.url,
        `/v1/partner/checkouts?email=${encodeURIComponent(` ${email.toUpperCase()} `.trim())}`,
        { headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET } },
      );
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.data.map((checkout: { id: string }) => checkout.id).sort()).toEqual(
        [...(made.get(email) ?? [])].sort(),
      );
    }
  });

  it('reverses no e-mail or client address, and holds no client address as such — nor does its export', async () => {
    const held = await copy();
    const ledgers = [...held.matchAll(/funding-ledger:([A-Za-z0-9_:.-]+)/g)].map(
      (match) => match[1] as string,
    );
    expect(ledgers.length).toBeGreaterThan(0);
    // Everything the config says, and what the release before salted with.
    const sandboxUrl = stack.sandbox.url;
    const salts = [
      'shop',
      'shop-pay',
      'test',
      SHOP_ORIGIN,
      sandboxUrl,
      createHash('sha256').update(sandboxUrl).digest('base64url').slice(0, 12),
      ...ledgers,
    ];
    const addresses = [...TRAVELLERS.map((traveller) => traveller.address), PROBER];
    const dictionary = [...TRAVELLERS.map((traveller) => traveller.email), ...addresses];
    // The attack works: a digest the release before wrote is found (the check would see one).
    expect(reversed(plainDigests(TRAVELLERS[0]?.email ?? '')[2] ?? '', dictionary, salts)).toEqual([
      TRAVELLERS[0]?.email,
    ]);
    expect(reversed(held, dictionary, salts)).toEqual([]);
    for (const address of addresses) {
      expect(held).not.toContain(address);
      expect(held).not.toContain(limitedAddress(address));
    }

    // Exported as the command does it: the BFF stopped.
    closed = true;
    await stack.close();
    const lines = await exported(env());
    expect(lines).toContain('"checkout:');
    expect(reversed(lines, dictionary, salts)).toEqual([]);
    for (const address of addresses) {
      expect(lines).not.toContain(address);
      expect(lines).not.toContain(limitedAddress(address));
    }
  });
});
