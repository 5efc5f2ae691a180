/**
 * Every enum in an answer the BFF reads has a decided reading of values it does not know: a safe meaning
 * (unknown-values.ts) or strict on purpose. An enum added to the contract schemas fails here until decided.
 */
import {
  AccountResponseSchema,
  ActionRequestResponseSchema,
  CapabilitiesResponseSchema,
  DeliveryLinkResponseSchema,
  DeliveryLinkRevocationResponseSchema,
  ErrorEnvelopeSchema,
  EsimActionsResponseSchema,
  EsimDetailResponseSchema,
  OfferPageSchema,
  OfferResponseSchema,
  OrderPageSchema,
  OrderResponseSchema,
  ProductPageSchema,
  TopUpOfferPageSchema,
  UpstreamQuoteResponseSchema,
} from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { STRICT_ENUMS, UNKNOWN_VALUE_MEANINGS } from './unknown-values';

const ANSWERS = {
  ProductPageSchema,
  OfferPageSchema,
  OfferResponseSchema,
  CapabilitiesResponseSchema,
  AccountResponseSchema,
  UpstreamQuoteResponseSchema,
  OrderResponseSchema,
  OrderPageSchema,
  EsimDetailResponseSchema,
  EsimActionsResponseSchema,
  TopUpOfferPageSchema,
  DeliveryLinkResponseSchema,
  DeliveryLinkRevocationResponseSchema,
  ActionRequestResponseSchema,
  ErrorEnvelopeSchema,
};

/** The enums reachable from `schema`, each with the first path it was met at. */
function enumsOf(
  schema: z.ZodType,
  path: string,
  found: Map<z.ZodType, string>,
  seen = new Set<z.ZodType>(),
) {
  if (seen.has(schema)) return;
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  if (def.type === 'enum') {
    if (!found.has(schema)) found.set(schema, path);
    return;
  }
  const walk = (child: unknown, at = path) => enumsOf(child as z.ZodType, at, found, seen);
  if (def.type === 'object') {
    for (const [key, child] of Object.entries(def.shape as object)) walk(child, `${path}.${key}`);
  }
  for (const key of ['element', 'innerType', 'in', 'out', 'left', 'right', 'valueType']) {
    if (def[key]) walk(def[key]);
  }
  for (const key of ['options', 'items']) for (const child of (def[key] as unknown[]) ?? []) walk(child);
  if (def.type === 'lazy') walk((def.getter as () => unknown)());
}

describe('unknown values', () => {
  it('every enum of every answer read has a safe meaning or is strict on purpose', () => {
    const found = new Map<z.ZodType, string>();
    for (const [name, schema] of Object.entries(ANSWERS)) enumsOf(schema, name, found);
    const undecided = [...found]
      .filter(([schema]) => !UNKNOWN_VALUE_MEANINGS.has(schema) && !STRICT_ENUMS.has(schema))
      .map(([, path]) => path);
    expect(undecided).toEqual([]);
    expect(found.size).toBeGreaterThan(40);
  });

  it('reads an unknown value as one of the enum’s own values', () => {
    for (const [schema, meaning] of UNKNOWN_VALUE_MEANINGS) {
      if (typeof meaning.readsAs !== 'string') continue;
      expect(schema.safeParse(meaning.readsAs).success, meaning.name).toBe(true);
    }
  });
});
