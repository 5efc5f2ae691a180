/**
 * @module
 * `pnpm --filter @esim-embed/bff config-schema`: writes `config.schema.json` (the config file's JSON Schema,
 * generated from the zod schema) at the package's root, where editors and the docs' examples find it; given a
 * path (`tsx scripts/write-config-schema.ts <path>`), writes it there instead (the release does).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configJsonSchemaText } from '../src/config/config-json-schema';

const path = process.argv[2] ?? fileURLToPath(new URL('../config.schema.json', import.meta.url));
writeFileSync(path, configJsonSchemaText());
console.log(`wrote ${path}`);
