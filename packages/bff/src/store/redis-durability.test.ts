/**
 * The durability check at start, against real `redis-server` processes: an evicting `maxmemory-policy` stops a
 * production start with a message naming the setting and is a warning elsewhere; `noeviction` passes, and what
 * was read (policy, `appendonly`, `appendfsync`) is logged; a Redis that is not there is logged, not waited for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type RunningRedis, startRedisServer } from '../../testing/redis-server';
import { createLogger } from '../logger';
import { checkRedisDurability } from './redis-durability';
import { RedisSettingError } from './redis-target';

let evicting: RunningRedis;
let keeping: RunningRedis;
/** Where the server with an append-only file writes it. */
const aofDir = mkdtempSync(join(tmpdir(), 'esim-redis-aof-'));
beforeAll(async () => {
  evicting = await startRedisServer({ settings: ['--maxmemory-policy', 'volatile-lru'] });
  keeping = await startRedisServer({
    settings: [
      '--maxmemory-policy',
      'noeviction',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--dir',
      '/tmp',
    ],
  });
});
afterAll(async () => {
  await evicting?.stop();
  await keeping?.stop();
  rmSync(aofDir, { recursive: true, force: true });
});

/** A logger whose lines are kept, parsed. */
function keptLogger() {
  const lines: Array<{ level: string; message: string } & Record<string, unknown>> = [];
  return { lines, logger: createLogger({ write: (line) => lines.push(JSON.parse(line)) }) };
}

describe('the Redis durability check at start', () => {
  it('refuses an evicting maxmemory-policy in production, naming the setting', async () => {
    const { logger } = keptLogger();
    const check = checkRedisDurability({ kind: 'url', url: evicting.url }, { production: true, logger });
    await expect(check).rejects.toThrow(RedisSettingError);
    await expect(
      checkRedisDurability({ kind: 'url', url: evicting.url }, { production: true, logger }),
    ).rejects.toThrow(/maxmemory-policy is volatile-lru.*noeviction/s);
  });

  it('warns of it elsewhere, and of appendonly off', async () => {
    const { lines, logger } = keptLogger();
    const read = await checkRedisDurability(
      { kind: 'url', url: evicting.url },
      { production: false, logger },
    );
    expect(read).toEqual({ maxmemoryPolicy: 'volatile-lru', appendonly: 'no', appendfsync: 'everysec' });
    const warnings = lines.filter((line) => line.level === 'warn').map((line) => line.message);
    expect(warnings).toEqual([
      expect.stringMatching(/^Redis's maxmemory-policy is volatile-lru/),
      expect.stringMatching(/appendonly off/),
    ]);
  });

  it('passes noeviction in production and logs what it read', async () => {
    const { lines, logger } = keptLogger();
    const read = await checkRedisDurability({ kind: 'url', url: keeping.url }, { production: true, logger });
    expect(read).toEqual({ maxmemoryPolicy: 'noeviction', appendonly: 'yes', appendfsync: 'always' });
    expect(lines.filter((line) => line.level === 'warn')).toEqual([]);
    expect(lines.find((line) => line.message === 'Redis durability')).toMatchObject({
      maxmemoryPolicy: 'noeviction',
    });
  });

  it('logs a Redis it cannot reach and lets the start go on', async () => {
    const { lines, logger } = keptLogger();
    const url = `redis://127.0.0.1:${await freePort()}`;
    expect(await checkRedisDurability({ kind: 'url', url }, { production: true, logger })).toBeNull();
    expect(lines.map((line) => line.message)).toEqual([
      'could not read the durability settings of Redis at start',
    ]);
  });
});
