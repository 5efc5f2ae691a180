/**
 * @module
 * `server.mjs backup <file>` and `server.mjs restore <file>`: a consistent copy of the embedded store in
 * `ESIM_BFF_DATA_DIR` taken while the BFF serves, and its restore into an empty data directory
 * (`sqlite-backup.ts`). With `ESIM_BFF_REDIS_URL` set the state is in Redis, which has backups of its own: the
 * commands say so and what to do. A backup holds travellers' e-mail addresses: its file is its user's alone
 * (`0600`), as the database is.
 */
import type { Writable } from 'node:stream';
import { redisTargetFromEnvironment } from './redis-target';
import { backupStore, restoreStore, type StoreCopy } from './sqlite-backup';
import { DEFAULT_DATA_DIR } from './store-from-environment';

/** The commands, by their name on the command line. */
export const BACKUP_COMMANDS = ['backup', 'restore'] as const;
export type BackupCommand = (typeof BACKUP_COMMANDS)[number];

export function isBackupCommand(argument: string | undefined): argument is BackupCommand {
  return (BACKUP_COMMANDS as readonly string[]).includes(argument ?? '');
}

/** What a backup holds, said wherever one is written. */
const PERSONAL_DATA_NOTICE =
  'The backup holds personal data (travellers’ e-mail addresses, their checkouts): keep it as you keep the ' +
  'database — readable by its owner alone (0600), never in a shared folder — and delete it when it is no ' +
  'longer needed.';

const USAGE: Record<BackupCommand, string> = {
  backup: `Usage: node server.mjs backup <file>

Copies the embedded store in ESIM_BFF_DATA_DIR (default data/) into <file> while the BFF serves from it: one
SQLite database, the store as it was at one instant. <file> is created for its owner alone (0600) and never
overwritten. Restore it with \`node server.mjs restore <file>\`.
${PERSONAL_DATA_NOTICE}
`,
  restore: `Usage: node server.mjs restore <file>

Writes the backup <file> into ESIM_BFF_DATA_DIR (default data/), which must be empty or missing (it is created
for its owner alone, 0700; the database 0600). The file must be a backup of the embedded store of this release
or an earlier one. Then start the BFF with that ESIM_BFF_DATA_DIR.
`,
};

/** Why the command does nothing on Redis, and what to do instead. */
const ON_REDIS: Record<BackupCommand, string> = {
  backup:
    'ESIM_BFF_REDIS_URL is set: the state is in Redis, which backs itself up — `backup` copies the embedded ' +
    'store only. Keep Redis’s own files: an RDB snapshot (`redis-cli -u <url> --rdb <file>` writes one from a ' +
    'running Redis; or copy the dump.rdb that `BGSAVE` writes) and, with `appendonly yes`, its append-only ' +
    'file; copy them off the host on a schedule (docs/deployment.md, "Backups").',
  restore:
    'ESIM_BFF_REDIS_URL is set: the state is in Redis, restored from its own files — stop Redis, put the RDB ' +
    'snapshot (dump.rdb) or the append-only file in its data folder, start it. `restore` writes a backup of ' +
    'the embedded store into a data folder; to move such a backup into Redis, restore it into a data folder, ' +
    'then `export-state` from there and `import-state` into Redis (docs/deployment.md).',
};

/** `<n> checkouts, <size>, schema version <v>`, for the reports. */
function describeCopy(copy: StoreCopy): string {
  const megabytes = (copy.bytes / 1_000_000).toFixed(1);
  return `${copy.checkouts} checkouts, ${megabytes} MB, schema version ${copy.schemaVersion}`;
}

/**
 * Run one command with the arguments after its name; resolves with the process's exit code, and throws with a
 * message that says what to do when the command cannot do its work.
 */
export async function runBackupCommand(
  command: BackupCommand,
  env: NodeJS.ProcessEnv,
  io: { stdout: Writable; stderr: Writable },
  args: readonly string[] = [],
): Promise<number> {
  if (args[0] === '--help' || args[0] === '-h') {
    io.stdout.write(USAGE[command]);
    return 0;
  }
  const [file] = args;
  if (args.length !== 1 || file === undefined || file === '' || file.startsWith('-')) {
    throw new Error(
      `${command} takes one argument, the backup's file (given: ${args.join(' ')}); see --help`,
    );
  }
  if (redisTargetFromEnvironment(env) !== null) throw new Error(ON_REDIS[command]);
  const dataDir = env.ESIM_BFF_DATA_DIR || DEFAULT_DATA_DIR;
  const started = performance.now();
  if (command === 'backup') {
    const copy = await backupStore(dataDir, file);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    io.stderr.write(
      `backed up the embedded store in ${dataDir} to ${copy.file} (${describeCopy(copy)}) in ${seconds} s.\n` +
        `${PERSONAL_DATA_NOTICE}\n`,
    );
  } else {
    const copy = await restoreStore(file, dataDir);
    io.stderr.write(
      `restored ${file} into ${dataDir} (${describeCopy(copy)}): start the BFF with ESIM_BFF_DATA_DIR=${dataDir}.\n` +
        'Sales made after the backup was taken are not in it: the BFF reports their upstream orders as ' +
        'order.unmatched once it has started.\n',
    );
  }
  return 0;
}
