/**
 * @module
 * Redocly CLI (`@redocly/cli`, a dev dependency) as the BFF's checks run it: the lint of the OpenAPI document
 * (`scripts/lint-openapi.ts`) and the client generated from it in another language (`generated-client.test.ts`).
 * Offline: no usage data sent, no update check (`REDOCLY_TELEMETRY=off`, `telemetry: off` in `redocly.yaml`,
 * `REDOCLY_SUPPRESS_UPDATE_NOTICE`), the document read from a local file.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The BFF's Redocly config: the recommended rules, telemetry off. */
export const REDOCLY_CONFIG = fileURLToPath(new URL('../redocly.yaml', import.meta.url));

const CLI = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

/** Runs `redocly <args…>` (its output kept, or shown with `inherit`), offline. */
export function runRedocly(
  args: readonly string[],
  options: { inherit?: boolean; cwd?: string } = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    encoding: 'utf8',
    stdio: options.inherit === true ? 'inherit' : 'pipe',
    env: {
      ...process.env,
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
    },
  });
}
