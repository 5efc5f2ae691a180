/**
 * @module
 * Tolerant reading of upstream responses. The shared contract schemas are strict (the sandbox must match
 * them exactly); as a client the BFF strips unknown keys instead, reads an enum value it does not know with
 * its safe meaning (unknown-values.ts: a known value, or the list entry left out) and any `apiVersion`, so an
 * additive upstream change (`contractStatus: stable`) never breaks a sale, while a wrong type still fails.
 */
import { API_VERSION } from '@esim-embed/shared';
import { z } from 'zod';
import { DROP, noteUnknownValue, UNKNOWN_VALUE_MEANINGS } from './unknown-values';

/** A zod 4 schema seen through its definition (`_zod.def`), enough to rebuild it with other children. */
type AnySchema = z.ZodType & { clone(def: unknown): z.ZodType };
type Def = Record<string, unknown> & { type: string };

const cache = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The same schema with every nested object turned from strict (or loose) into stripping: unknown keys are
 * dropped, declared keys keep their types, checks and refinements. An enum with a safe meaning reads an
 * unknown value as that meaning (noted for the logs); a list leaves out entries whose value means "drop".
 * `meta.apiVersion` reads any version. The inferred type is unchanged.
 * Results are cached, so calling it per request is cheap (build them once at module level anyway).
 *
 * @example
 * const OrderBody = tolerant(OrderResponseSchema);
 * OrderBody.parse({ data: { ...order, newField: 1 }, meta }); // newField dropped
 */
export function tolerant<T extends z.ZodType>(schema: T): T {
  return strip(schema) as T;
}

/**
 * {@link tolerant} for a page (`{ data: [...], meta }`): an entry of `data` that still cannot be read (a
 * currency nothing can stand for, a wrong type) is left out and noted, instead of making the whole page
 * unreadable — one odd offer must not empty the catalog.
 */
export function tolerantPage<T extends z.ZodObject<{ data: z.ZodArray<z.ZodType> }>>(schema: T): T {
  const page = tolerant(schema);
  const entry = tolerant(schema.shape.data.element);
  const entries = z.array(z.unknown()).transform((items) =>
    items.flatMap((item) => {
      const read = entry.safeParse(item);
      if (read.success) return [read.data];
      const issue = read.error.issues[0];
      noteUnknownValue({
        name: 'list entry',
        value: `data[].${issue?.path.join('.') ?? ''}: ${issue?.code ?? 'unreadable'}`,
        readsAs: 'left out',
      });
      return [];
    }),
  );
  return page.extend({ data: entries }) as unknown as T;
}

function strip(schema: z.ZodType): z.ZodType {
  const cached = cache.get(schema);
  if (cached) return cached;
  const rebuilt = rebuild(schema as AnySchema);
  cache.set(schema, rebuilt);
  return rebuilt;
}

function rebuild(schema: AnySchema): z.ZodType {
  const def = schema._zod.def as unknown as Def;
  const child = (value: unknown) => strip(value as z.ZodType);
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const stripped = Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, child(value)]));
      return schema.clone({ ...def, shape: stripped, catchall: undefined });
    }
    case 'array': {
      const array = schema.clone({ ...def, element: child(def.element) });
      return array.transform((items) => (items as unknown[]).filter((item) => !isDropped(item)));
    }
    case 'enum':
      return tolerantEnum(schema, def);
    case 'literal':
      return (def.values as unknown[]).length === 1 && (def.values as unknown[])[0] === API_VERSION
        ? z.string().transform((value) => {
            if (value !== API_VERSION) noteUnknownValue({ name: 'apiVersion', value, readsAs: API_VERSION });
            return API_VERSION;
          })
        : schema;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'catch':
    case 'readonly':
      return schema.clone({ ...def, innerType: child(def.innerType) });
    case 'union':
      return schema.clone({ ...def, options: (def.options as z.ZodType[]).map(child) });
    case 'intersection':
      return schema.clone({ ...def, left: child(def.left), right: child(def.right) });
    case 'pipe':
      return schema.clone({ ...def, in: child(def.in), out: child(def.out) });
    case 'record':
      return schema.clone({ ...def, valueType: child(def.valueType) });
    case 'tuple':
      return schema.clone({
        ...def,
        items: (def.items as z.ZodType[]).map(child),
        rest: def.rest ? child(def.rest) : def.rest,
      });
    case 'lazy': {
      const getter = def.getter as () => z.ZodType;
      return schema.clone({ ...def, getter: () => strip(getter()) });
    }
    default:
      // Scalars: nothing to strip.
      return schema;
  }
}

/** An enum that reads a value it does not know with its safe meaning, or strictly when it has none. */
function tolerantEnum(schema: AnySchema, def: Def): z.ZodType {
  const meaning = UNKNOWN_VALUE_MEANINGS.get(schema);
  if (!meaning) return schema;
  const known = new Set(Object.values(def.entries as Record<string, string>));
  return z.string().transform((value) => {
    if (known.has(value)) return value;
    const readsAs = meaning.readsAs;
    noteUnknownValue({ name: meaning.name, value, readsAs: readsAs === DROP ? 'left out' : readsAs });
    return readsAs;
  });
}

/** A list entry to leave out: a dropped value itself, or an object with one as a direct field. */
function isDropped(item: unknown): boolean {
  if (item === DROP) return true;
  if (typeof item !== 'object' || item === null) return false;
  return Object.values(item).some((value) => value === DROP);
}
