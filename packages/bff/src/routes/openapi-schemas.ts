/**
 * @module
 * The JSON Schemas of the OpenAPI document, from the zod schemas that validate the requests. What the BFF answers
 * (responses, webhook events) names the shared schemas it is made of as components, under the names `shared`
 * exports them by (`PartnerCheckoutSchema` → `#/components/schemas/PartnerCheckout`), so that a generated client
 * has a type per resource; what it reads (bodies, queries) stays inline, as zod renders a schema's input apart
 * from its output (a field with a default is optional there).
 */
import * as shared from '@esim-embed/shared';
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const SCHEMA_SUFFIX = 'Schema';
const COMPONENTS = '#/components/schemas/';

/** Every zod schema `shared` exports, under its export name less `Schema`: the components' one naming. */
const NAMED = z.registry<{ id: string }>();
for (const [name, value] of Object.entries(shared)) {
  if (name.endsWith(SCHEMA_SUFFIX) && value instanceof z.ZodType) {
    NAMED.add(value, { id: name.slice(0, -SCHEMA_SUFFIX.length) });
  }
}

/** A zod schema's JSON Schema, without the `$schema` line the OpenAPI document does not take. */
export function inlineSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** `#/$defs/Name` → `#/components/schemas/Name`, everywhere in `node`. */
function toComponentRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toComponentRefs);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')
        ? `${COMPONENTS}${value.slice('#/$defs/'.length)}`
        : toComponentRefs(value),
    ]),
  );
}

/** The components of one document: every answer rendered through it, the named schemas it met collected. */
export interface SchemaComponents {
  /** An answer's schema: its named parts (or itself) as `$ref`s to the components. */
  answer(schema: z.ZodType): JsonSchema;
  /** The components met so far, by name. */
  readonly schemas: Readonly<Record<string, JsonSchema>>;
}

/** Starts the components of a document. */
export function schemaComponents(): SchemaComponents {
  const schemas: Record<string, JsonSchema> = {};
  const texts = new Map<string, string>();
  // Every error answer is the one envelope, and many routes answer one schema: each is rendered once.
  const answers = new Map<z.ZodType, JsonSchema>();
  return {
    schemas,
    answer(schema) {
      const known = answers.get(schema);
      if (known !== undefined) return known;
      const rendered = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', metadata: NAMED });
      const {
        $schema: _ignored,
        $defs,
        ...rest
      } = toComponentRefs(rendered) as JsonSchema & {
        $defs?: Record<string, JsonSchema>;
      };
      for (const [name, definition] of Object.entries($defs ?? {})) {
        const text = JSON.stringify(definition);
        // One name, one schema: two exports of `shared` under one name cannot both be components.
        if (texts.has(name) && texts.get(name) !== text) throw new Error(`two schemas are named ${name}`);
        texts.set(name, text);
        schemas[name] = definition;
      }
      answers.set(schema, rest);
      return rest;
    },
  };
}
