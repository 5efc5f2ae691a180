/**
 * @module
 * `server.mjs console-user add --name <name> --widget <widget id> --role viewer|support|admin [--no-second-factor]`:
 * adds a console user of the partner that widget belongs to, in the store the BFF runs on (Redis when
 * `ESIM_BFF_REDIS_URL` is set, else the embedded store — which one process holds at a time: stop the BFF first,
 * or have an admin add users in the console). The password is read from `ESIM_CONSOLE_PASSWORD`, or made and
 * printed once; a second factor's `otpauth://` URI is printed once, to be scanned into an authenticator app.
 */
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { ConsolePasswordSchema, ConsoleRoleSchema, ConsoleUsernameSchema } from '@esim-embed/shared/console';
import { loadConfig } from '../config/load-config';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import { openStoreFromEnvironment } from '../store/store-from-environment';
import { consoleUsersOn } from './console-feature';
import { partnerOf } from './console-partners';

export const CONSOLE_USER_COMMAND = 'console-user';

export const isConsoleUserCommand = (argument: string | undefined): boolean =>
  argument === CONSOLE_USER_COMMAND;

const USAGE = `Usage: node server.mjs console-user add --name <name> --widget <widget id> --role viewer|support|admin [--no-second-factor]

Adds a user of the partner console (docs/console.md) for the partner that <widget id> belongs to (every widget
its partner secret opens). The password is ESIM_CONSOLE_PASSWORD (at least 12 characters), or a new one printed
once. With a second factor (the default; a live console requires one for admin), its otpauth:// URI is printed
once: scan it into an authenticator app. Run it against the BFF's store with the BFF's config and
ESIM_BFF_SESSION_SECRET; with the embedded store, while the BFF is stopped.
`;

/** The value after `--flag`, or undefined. */
function option(args: readonly string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : args[at + 1];
}

/** Run the command; resolves with the exit code, throws with what to fix. */
export async function runConsoleUserCommand(
  env: NodeJS.ProcessEnv,
  io: { stdout: Writable; stderr: Writable },
  args: readonly string[],
  logger: Logger,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (args[0] !== 'add') {
    io.stderr.write(USAGE);
    return 2;
  }
  const username = ConsoleUsernameSchema.safeParse(option(args, '--name'));
  const role = ConsoleRoleSchema.safeParse(option(args, '--role'));
  const widgetId = option(args, '--widget') ?? '';
  if (!username.success || !role.success) throw new Error(`name a user and a role\n${USAGE}`);
  const given = env.ESIM_CONSOLE_PASSWORD;
  const password = given === undefined || given === '' ? randomBytes(15).toString('base64url') : given;
  if (!ConsolePasswordSchema.safeParse(password).success) {
    throw new Error('ESIM_CONSOLE_PASSWORD must be 12 to 256 characters long');
  }
  const loaded = loadConfig(env, logger);
  const widgets = new Map(
    loaded.config.widgets.map((widget) => [
      widget.id,
      { partnerSecret: loaded.secrets.get(widget.id)?.partnerSecret },
    ]),
  );
  const partner = partnerOf(widgets, widgetId);
  if (partner === null) {
    throw new Error(
      `--widget ${widgetId || '(missing)'} is none of the config's widgets: ${[...widgets.keys()].join(', ')}`,
    );
  }
  const { store } = openStoreFromEnvironment(env, logger);
  try {
    const users = consoleUsersOn(
      store,
      [loaded.sessionSecret, ...(loaded.previousSessionSecrets ?? [])],
      Date.now,
    );
    const added = await users
      .add(partner, {
        username: username.data,
        password,
        role: role.data,
        secondFactor: !args.includes('--no-second-factor'),
        createdBy: 'cli',
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.params.reason === 'taken') {
          throw new Error(`${username.data} is a console user already: choose another name`);
        }
        throw error;
      });
    io.stdout.write(
      [
        `Added ${added.user.username} (${added.user.role}) to the partner of ${[...partner.widgets.keys()].join(', ')}.`,
        given === undefined || given === ''
          ? `Password (shown once): ${password}`
          : 'Password: ESIM_CONSOLE_PASSWORD',
        ...(added.otpauthUri === null ? [] : [`Second factor (scan once, shown once): ${added.otpauthUri}`]),
        '',
      ].join('\n'),
    );
    return 0;
  } finally {
    await store.close();
  }
}
