/**
 * @module
 * `pnpm --filter @esim-embed/bff lint:openapi` (part of the root `pnpm lint`): the OpenAPI document the BFF serves
 * at `/openapi.json`, as built from the API's description, linted by Redocly CLI under its recommended rules
 * (`redocly.yaml`: their warnings made errors), offline. Exits with the linter's status.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../src/routes/openapi';
import { REDOCLY_CONFIG, runRedocly } from '../testing/redocly';

const folder = mkdtempSync(join(tmpdir(), 'esim-openapi-'));
try {
  const file = join(folder, 'openapi.json');
  writeFileSync(file, JSON.stringify(buildOpenApiDocument()));
  const lint = runRedocly(['lint', 'openapi.json', '--config', REDOCLY_CONFIG, '--max-problems', '1000'], {
    cwd: folder,
    inherit: true,
  });
  if (lint.error !== undefined) throw new Error('Redocly CLI did not run', { cause: lint.error });
  process.exitCode = lint.status ?? 1;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
