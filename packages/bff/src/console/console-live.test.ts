/**
 * A console whose partner sells for real (`live`): an admin without a second factor is refused at sign-in, an
 * admin cannot add another admin without one, and an admin adds a user with a second factor whose enrolment URI
 * is answered once — the code an authenticator app makes of it signs the new user in, the list never shows it.
 */
import { randomBytes } from 'node:crypto';
import { SANDBOX_KEYS } from '@esim-embed/sandbox';
import { CreatedConsoleUserSchema } from '@esim-embed/shared/console';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addConsoleUser, consoleBrowser, currentTotp } from '../../testing/console-client';
import { type Stack, startStack, testConfig } from '../../testing/stack';
import { base32 } from '../security/base32';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    env: {
      TEST_LIVE_KEY: SANDBOX_KEYS.harbourLive,
      TEST_LIVE_PARTNER_SECRET: `live-${randomBytes(24).toString('hex')}`,
    },
    config: (url) => {
      const base = testConfig(url);
      return {
        ...base,
        console: { enabled: true },
        widgets: [
          ...base.widgets,
          {
            id: 'shop-live',
            displayName: 'Live Shop',
            environment: 'live' as const,
            upstream: { baseUrl: url, apiKeyEnv: 'TEST_LIVE_KEY', rateLimitPerMinute: 100_000 },
            allowedOrigins: ['https://live.example'],
            checkoutMode: 'partner_confirm' as const,
            partnerSecretEnv: 'TEST_LIVE_PARTNER_SECRET',
          },
        ],
      };
    },
  });
});
afterAll(async () => {
  await stack?.close();
});

describe('a live partner’s console', () => {
  it('refuses an admin without a second factor, and lets one with it add a user with a second factor', async () => {
    const bare = await addConsoleUser(stack.bff, stack.sessionSecret, {
      username: 'bare@live.example',
      role: 'admin',
      widgetId: 'shop-live',
    });
    const refused = await consoleBrowser(stack.server.url).signIn(bare.username, bare.password);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: 'forbidden', params: { reason: 'second_factor_required' } });

    const admin = await addConsoleUser(stack.bff, stack.sessionSecret, {
      username: 'admin@live.example',
      role: 'admin',
      widgetId: 'shop-live',
      secondFactor: true,
    });
    const browser = consoleBrowser(stack.server.url);
    expect(
      (await browser.signIn(admin.username, admin.password, currentTotp(admin.totpSecret as Buffer))).status,
    ).toBe(200);
    const noFactor = await browser.send('POST', '/console/api/users', {
      username: 'second-admin@live.example',
      password: 'a-long-enough-password',
      role: 'admin',
      secondFactor: false,
    });
    expect(noFactor.status).toBe(422);
    expect(noFactor.body.error.params).toEqual({ field: 'secondFactor', reason: 'required_for_live_admin' });

    const added = await browser.send('POST', '/console/api/users', {
      username: 'agent@live.example',
      password: 'the-agents-first-password',
      role: 'support',
    });
    expect(added.status, added.text).toBe(201);
    const created = CreatedConsoleUserSchema.parse(added.body.data);
    expect(created.user).toMatchObject({
      username: 'agent@live.example',
      role: 'support',
      secondFactor: true,
      createdBy: 'console',
    });
    const secret = new URL(created.otpauthUri ?? '').searchParams.get('secret') ?? '';
    const listed = await browser.get('/console/api/users');
    expect(listed.body.data.map((user: { username: string }) => user.username)).toContain(
      'agent@live.example',
    );
    expect(listed.text).not.toContain(secret);
    // The code an authenticator app makes of the URI's secret signs the new user in.
    const decoded = Buffer.from(base32Decode(secret));
    expect(base32(decoded)).toBe(secret);
    const agent = consoleBrowser(stack.server.url);
    const signedIn = await agent.signIn(
      'agent@live.example',
      'the-agents-first-password',
      currentTotp(decoded),
    );
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.data.widgets.map((widget: { id: string }) => widget.id)).toEqual(['shop-live']);
  });
});

/** RFC 4648 base32 (no padding) back to bytes, as an authenticator app reads a URI's secret. */
function base32Decode(text: string): number[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return bytes;
}
