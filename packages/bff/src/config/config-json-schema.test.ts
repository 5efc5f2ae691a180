/**
 * The config's JSON Schema for editors: the committed `config.schema.json` is what the zod schema generates
 * today (regenerate with `pnpm --filter @esim-embed/bff config-schema`), every example config in the docs
 * points its `$schema` at it, and a config file that carries `$schema` loads as if it did not.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { configJsonSchema, configJsonSchemaText } from './config-json-schema';
import { loadConfig } from './load-config';

const COMMITTED = fileURLToPath(new URL('../../config.schema.json', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../../../docs/examples/', import.meta.url));

describe('config.schema.json', () => {
  it('is the schema the zod config schema generates (run `pnpm --filter @esim-embed/bff config-schema`)', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(configJsonSchemaText());
  });

  it('describes the fields a config file has, with their defaults', () => {
    const schema = configJsonSchema() as {
      properties: Record<string, { default?: unknown }>;
      required: string[];
    };
    expect(schema.required).toEqual(['widgets']);
    expect(schema.properties.$schema).toEqual({ type: 'string' });
    expect(schema.properties.sessionTtlSeconds?.default).toBe(900);
  });

  it('is the $schema of every example config in the docs', () => {
    const examples = readdirSync(EXAMPLES).filter((name) => name.endsWith('.json'));
    expect(examples.length).toBeGreaterThan(0);
    for (const name of examples) {
      const { $schema } = JSON.parse(readFileSync(join(EXAMPLES, name), 'utf8')) as { $schema?: string };
      expect($schema, name).toBeTypeOf('string');
      expect(resolve(dirname(join(EXAMPLES, name)), $schema ?? ''), name).toBe(COMMITTED);
    }
  });
});

describe('a config file with $schema', () => {
  it('loads, the $schema key ignored', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'bff-config-')), 'config.json');
    const widget = {
      id: 'acme',
      displayName: 'Acme',
      environment: 'test',
      upstream: { baseUrl: 'http://127.0.0.1:8788', apiKeyEnv: 'ACME_KEY' },
      allowedOrigins: ['https://acme.example'],
    };
    writeFileSync(path, JSON.stringify({ $schema: './config.schema.json', widgets: [widget] }));
    const logger = createLogger({ level: 'error', write: () => {} });
    const loaded = loadConfig({ ESIM_BFF_CONFIG: path, ACME_KEY: 'key' }, logger);
    expect(loaded.config.widgets.map((loadedWidget) => loadedWidget.id)).toEqual(['acme']);
  });
});
