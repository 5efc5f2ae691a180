/**
 * @module
 * The demo's console users (`pnpm start` only, with the built-in demo config): an admin, a support agent and a
 * viewer of the demo partner, with one published password, added at start unless they exist — so every start
 * leaves the same three. The demo's root secret is made afresh at each start (unless `ESIM_BFF_SESSION_SECRET` is
 * set), so a user of the last start, kept in `data/`, is no longer found by name: it is named again under the new
 * key rather than added once more. Never in a release: a release's users are added by the `console-user` command
 * or an admin.
 */
import type { ConsoleRole } from '@esim-embed/shared/console';
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { consoleUsersOn } from './console-feature';
import { partnerOf } from './console-partners';

/** The demo users' password: published, like the sandbox's test keys. */
export const DEMO_CONSOLE_PASSWORD = 'demo-console-password';

/** The demo's users, by role. */
export const DEMO_CONSOLE_USERS: readonly { username: string; role: ConsoleRole }[] = [
  { username: 'admin@demo.example', role: 'admin' },
  { username: 'support@demo.example', role: 'support' },
  { username: 'viewer@demo.example', role: 'viewer' },
];

/** Add the demo's console users of the partner of `widgetId` to `bff`'s store, where they are not yet. */
export async function addDemoConsoleUsers(
  bff: { store: Store; widgets: ReadonlyMap<string, WidgetRuntime> },
  rootSecrets: readonly Uint8Array[],
  widgetId: string,
): Promise<void> {
  const partner = partnerOf(bff.widgets, widgetId);
  if (partner === null) throw new Error(`the demo console's partner: no widget ${widgetId}`);
  const users = consoleUsersOn(bff.store, rootSecrets, Date.now);
  const kept = (await users.list(partner, null, 100)).items;
  for (const demo of DEMO_CONSOLE_USERS) {
    if ((await users.byName(demo.username)) !== null) continue;
    const earlier = kept.find((user) => user.username === demo.username);
    if (earlier !== undefined && (await users.claimName(earlier))) continue;
    await users.add(partner, {
      ...demo,
      password: DEMO_CONSOLE_PASSWORD,
      secondFactor: false,
      createdBy: 'cli',
    });
  }
}
