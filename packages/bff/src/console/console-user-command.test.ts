/**
 * The release's `console-user add` command: a user written into the embedded store the BFF runs on, of the
 * partner its widget belongs to, with the password given (never printed) and a second factor whose URI is
 * printed once — read back by the console's own user store, as a sign-in would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { openSqliteStore } from '../store/sqlite-store';
import { consoleUsersOn } from './console-feature';
import { runConsoleUserCommand } from './console-user-command';
import { verifyPassword } from './password-hash';

const dataDir = mkdtempSync(join(tmpdir(), 'console-user-'));
const SECRET = 'a-session-secret-of-at-least-32-bytes-for-the-test';
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const quiet = createLogger({ level: 'error', write: () => undefined });
const run = async (args: string[], env: Record<string, string> = {}) => {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  stdout.on('data', (chunk) => (out += String(chunk)));
  const code = await runConsoleUserCommand(
    { ESIM_BFF_DATA_DIR: dataDir, ESIM_BFF_SESSION_SECRET: SECRET, ...env },
    { stdout, stderr },
    args,
    quiet,
  );
  return { code, out };
};

describe('console-user add', () => {
  it('adds a user of the widget’s partner to the embedded store, printing the second factor once', async () => {
    const added = await run(
      ['add', '--name', 'Agent@Globetrotter.example', '--widget', 'demo-globetrotter', '--role', 'support'],
      { ESIM_CONSOLE_PASSWORD: 'the-agents-own-password' },
    );
    expect(added.code).toBe(0);
    expect(added.out).toContain('agent@globetrotter.example (support)');
    expect(added.out).toMatch(/otpauth:\/\/totp\//);
    expect(added.out).not.toContain('the-agents-own-password');
    const store = openSqliteStore({ dataDir, logger: quiet });
    try {
      const users = consoleUsersOn(store, [Buffer.from(SECRET)], Date.now);
      const user = await users.byName('agent@globetrotter.example');
      expect(user).toMatchObject({ role: 'support', createdBy: 'cli', partnerId: 'demo-globetrotter' });
      expect(await verifyPassword('the-agents-own-password', user?.passwordHash ?? '')).toBe(true);
      if (user === null) throw new Error('the user was not added');
      expect(users.secondFactorOf(user)).toHaveLength(20);
    } finally {
      await store.close();
    }
  });

  it('refuses a taken name, an unknown widget and a short password with what to fix', async () => {
    await expect(
      run(['add', '--name', 'agent@globetrotter.example', '--widget', 'demo-aurora', '--role', 'viewer'], {
        ESIM_CONSOLE_PASSWORD: 'another-long-password',
      }),
    ).rejects.toThrow(/a console user already/);
    await expect(
      run(['add', '--name', 'x@y.example', '--widget', 'nope', '--role', 'viewer']),
    ).rejects.toThrow(/none of the config's widgets/);
    await expect(
      run(['add', '--name', 'x@y.example', '--widget', 'demo-aurora', '--role', 'viewer'], {
        ESIM_CONSOLE_PASSWORD: 'short',
      }),
    ).rejects.toThrow(/12 to 256/);
    expect((await run(['--help'])).code).toBe(0);
    expect((await run(['remove'])).code).toBe(2);
  });
});
