/**
 * The demo's console users (`pnpm start`): every start leaves the same three users in a kept store, each found by
 * name and signed in with the published password — also when each start made its own root secret, as the demo does
 * without `ESIM_BFF_SESSION_SECRET`.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack, testConfig } from '../../testing/stack';
import { consoleUsersOn } from './console-feature';
import { partnerOf } from './console-partners';
import { addDemoConsoleUsers, DEMO_CONSOLE_PASSWORD, DEMO_CONSOLE_USERS } from './demo-console-users';
import { verifyPassword } from './password-hash';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ config: (url) => ({ ...testConfig(url), console: { enabled: true } }) });
});

afterAll(async () => {
  await stack?.close();
});

describe('the demo console users', () => {
  it('are the same three after every start, whatever root secret each start made', async () => {
    const starts = [randomBytes(32), randomBytes(32), randomBytes(32)];
    for (const secret of [starts[0], ...starts] as Buffer[]) {
      await addDemoConsoleUsers(stack.bff, [secret], 'shop');
    }
    const last = consoleUsersOn(stack.bff.store, [starts[2] as Buffer], Date.now);
    const partner = partnerOf(stack.bff.widgets, 'shop');
    if (partner === null) throw new Error('no partner of shop');
    const listed = (await last.list(partner, null, 100)).items;
    expect(listed.map((user) => user.username).sort()).toEqual(
      DEMO_CONSOLE_USERS.map((user) => user.username).sort(),
    );
    for (const demo of DEMO_CONSOLE_USERS) {
      const user = await last.byName(demo.username);
      expect(user?.role).toBe(demo.role);
      expect(await verifyPassword(DEMO_CONSOLE_PASSWORD, user?.passwordHash ?? '')).toBe(true);
    }
  });
});
