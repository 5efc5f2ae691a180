/**
 * @module
 * Tolerant reading of upstream responses. The shared contract schemas are strict (the sandbox must match
 * them exactly); as a client the BFF strips unknown keys instead, so an additive upstream change
 * (`contractStatus: stable`) never breaks a sale, while a wrong type still fails.
 */
import type { z } from 'zod';

/** A zod 4 schema seen through its definition (`_zod.def`), enough to rebuild it with other children. */
type AnySchema = z.ZodType & { clone(def: unknown): z.ZodType };
type Def = Record<string, unknown> & { type: string };

const cache = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The same schema with every nested object turned from strict (or loose) into stripping: unknown keys are
 * dropped, declared keys keep their types, checks and refinements. The inferred type is unchanged.
 * Results are cached, so calling it per request is cheap (build them once at module level anyway).
 *
 * @example
 * const OrderBody = tolerant(OrderResponseSchema);
 * OrderBody.parse({ data: { ...order, newField: 1 }, meta }); // newField dropped
 */
export function tolerant<T extends z.ZodType>(schema: T): T {
  return strip(schema) as T;
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
    case 'array':
      return schema.clone({ ...def, element: child(def.element) });
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
      // Scalars, enums, literals: nothing to strip.
      return schema;
  }
}
