/**
 * @module
 * The config file's JSON Schema, generated from the zod config schema (`config-schema.ts`) for editors: a config
 * with `"$schema": ".../config.schema.json"` gets completion and checks as it is typed. It describes the file as
 * written (defaults not yet applied); the cross-field rules (a partner secret for `partner_confirm`, HTTPS in
 * `live`, …) are checked when the BFF starts. Committed as `packages/bff/config.schema.json` (a test keeps it
 * current; `pnpm --filter @esim-embed/bff config-schema` rewrites it) and shipped in the release.
 */
import { z } from 'zod';
import { BffConfigSchema } from './config-schema';

/** The JSON Schema of the BFF's config file. */
export function configJsonSchema(): Record<string, unknown> {
  const { $schema, ...schema } = z.toJSONSchema(BffConfigSchema, { io: 'input', unrepresentable: 'any' });
  return {
    $schema,
    title: 'eSIM Embed BFF config',
    description:
      'The BFF’s JSON config (ESIM_BFF_CONFIG). Secrets are never written here: fields ending in Env name the ' +
      'environment variables that hold them. See docs/configuration.md.',
    ...schema,
  };
}

/** The schema as the committed file holds it. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
