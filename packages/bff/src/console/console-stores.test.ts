/**
 * The console's records on every store the BFF runs on — memory, embedded (SQLite) and Redis — through the one
 * store interface: a user added, found by name in any case and listed by partner, its name taken once, its
 * second factor sealed and a code's step spent once, both still read after a rotation of the root secret, a change that ends its sessions; a session used, moved and
 * ended on its own clock; the audit log listed newest first; and the funnel's counters counted and read.
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import { createLogger } from '../logger';
import { createFunnelCounters } from '../sales-ledger/funnel-counters';
import { createMemoryStore } from '../store/memory-store';
import { createRedisStore } from '../store/redis-store';
import { openSqliteStore } from '../store/sqlite-store';
import type { Store } from '../store/store';
import { createConsoleAudit } from './console-audit';
import { consoleUsersOn } from './console-feature';
import { createConsoleSessions } from './console-sessions';

const quiet = createLogger({ level: 'error', write: () => undefined });
const ROOT = randomBytes(32);
const dataDir = mkdtempSync(join(tmpdir(), 'console-stores-'));
let redis: RunningRedis;
const opened: Store[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await redis?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const stores: Record<string, () => Store> = {
  memory: () => createMemoryStore(),
  embedded: () => openSqliteStore({ dataDir, logger: quiet }),
  redis: () => createRedisStore({ url: redis.url, keyPrefix: `console-${randomBytes(4).toString('hex')}:` }),
};

describe.each(Object.keys(stores))('the console’s records on the %s store', (kind) => {
  let store: Store;
  let time = Date.parse('2026-11-29T10:00:00Z');
  const now = () => time;
  beforeAll(() => {
    store = (stores[kind] as () => Store)();
    opened.push(store);
  });

  it('keeps its users through a rotation of the root secret: found by name, their second factor readable', async () => {
    const before = consoleUsersOn(store, [ROOT], now);
    const added = await before.add(
      { id: 'rota' },
      {
        username: 'Rota@Shop.example',
        password: 'a-long-enough-password',
        role: 'admin',
        secondFactor: true,
        createdBy: 'cli',
      },
    );
    const secret = before.secondFactorOf(added.user);
    expect(secret).toHaveLength(20);
    // The new root first, the one it replaces still listed (ESIM_BFF_PREVIOUS_SESSION_SECRETS).
    const after = consoleUsersOn(store, [randomBytes(32), ROOT], now);
    const found = await after.byName('rota@shop.example');
    expect(found?.id).toBe(added.user.id);
    expect(after.secondFactorOf(found as NonNullable<typeof found>)).toEqual(secret);
  });

  it('keeps users: found by name, listed by partner, a name taken once, a code spent once', async () => {
    const users = consoleUsersOn(store, [ROOT], now);
    const partner = { id: 'shop' };
    const added = await users.add(partner, {
      username: 'Ada@Shop.example',
      password: 'a-long-enough-password',
      role: 'admin',
      secondFactor: true,
      createdBy: 'cli',
    });
    expect(added.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    await expect(
      users.add(partner, {
        username: 'ada@shop.example',
        password: 'another-password!',
        role: 'viewer',
        secondFactor: false,
        createdBy: 'console',
      }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
    const found = await users.byName('ADA@shop.example');
    expect(found).toMatchObject({ id: added.user.id, role: 'admin' });
    expect(users.secondFactorOf(found ?? added.user)).toHaveLength(20);
    // The store holds neither the name as a key nor the second factor's secret in the clear.
    const secret = (users.secondFactorOf(added.user) as Buffer).toString('base64url');
    expect((await store.get(`console-user:${added.user.id}`))?.value).not.toContain(secret);
    const listed = await users.list({ id: 'shop', widgets: new Map([['shop', {} as never]]) }, null, 10);
    expect(listed.items.map((user) => user.id)).toEqual([added.user.id]);
    expect(await users.signedIn(added.user, now(), 100)).toBe(true);
    expect(await users.signedIn(added.user, now(), 100)).toBe(false);
    const changed = await users.change(added.user.id, { role: 'support' });
    expect(changed).toMatchObject({ role: 'support', sessionsNotBefore: now() });
  });

  it('keeps sessions: used within the idle time, moved by use, over after it and when ended', async () => {
    const sessions = createConsoleSessions({ store, idleMs: 30 * 60_000, lifetimeMs: 12 * 60 * 60_000, now });
    const { token, session } = await sessions.open('usr_x', 'password');
    expect(await store.get(`console-session:${token}`)).toBeNull();
    time += 20 * 60_000;
    expect((await sessions.use(token))?.csrfToken).toBe(session.csrfToken);
    time += 20 * 60_000;
    expect(await sessions.use(token)).not.toBeNull();
    time += 31 * 60_000;
    expect(await sessions.use(token)).toBeNull();
    const second = await sessions.open('usr_x', 'sso');
    await sessions.end(second.token);
    expect(await sessions.use(second.token)).toBeNull();
    expect(await sessions.use('not-a-token')).toBeNull();
  });

  it('keeps the audit log newest first, and the funnel’s counters', async () => {
    const audit = createConsoleAudit({ store, keptMs: 400 * 24 * 60 * 60_000, now });
    await audit.record({ partnerId: 'shop', action: 'sign_in', actor: { userId: 'usr_a', username: 'a' } });
    time += 1_000;
    await audit.record({ partnerId: 'shop', action: 'sign_out', actor: { userId: 'usr_a', username: 'a' } });
    await audit.record({ partnerId: 'other', action: 'sign_in', actor: { userId: 'usr_b', username: 'b' } });
    const page = await audit.list('shop', null, 10);
    expect(page.items.map((entry) => entry.action)).toEqual(['sign_out', 'sign_in']);

    const funnel = createFunnelCounters({ store, keptMs: 400 * 24 * 60 * 60_000, logger: quiet, now });
    await funnel.count('shop', 'quoted');
    await funnel.count('shop', 'quoted');
    await funnel.count('shop', 'paid', Date.parse('2026-11-28T23:59:00Z'));
    const days = await funnel.read(['shop'], '2026-11-28', '2026-11-29');
    expect(days.map((day) => [day.day, day.steps.quoted, day.steps.paid])).toEqual([
      ['2026-11-28', 0, 1],
      ['2026-11-29', 2, 0],
    ]);

    // Page views are tallied in memory: read at once by their instance, in the store for all once flushed.
    funnel.tally('shop', 'widgetOpened');
    funnel.tally('shop', 'widgetOpened');
    const opened = async (counters: typeof funnel) =>
      (await counters.read(['shop'], '2026-11-29', '2026-11-29'))[0]?.steps.widgetOpened;
    const another = createFunnelCounters({ store, keptMs: 400 * 24 * 60 * 60_000, logger: quiet, now });
    expect(await opened(funnel)).toBe(2);
    expect(await opened(another)).toBe(0);
    await funnel.background.close();
    expect(await opened(another)).toBe(2);
    expect(await opened(funnel)).toBe(2);
  });
});
