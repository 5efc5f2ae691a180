/**
 * @module
 * A widget's pricing rule as the config writes it, with its default; `catalog/pricing.ts` applies it.
 */
import type { MarkupRounding } from '@esim-embed/shared';
import { z } from 'zod';

/**
 * A widget's pricing rule. `recommended_retail` shows the upstream's recommended retail price;
 * `markup` adds `percent` (0..500) to the wholesale price and rounds: `none` (to the minor unit, up),
 * `whole` (up to a whole currency unit), `ninety_nine` (up to the next price ending in .99, or in 9 whole
 * units where only whole roubles are allowed: 512.40 ₽ → 519 ₽).
 */
export const PricingRuleSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('recommended_retail') }),
  z.strictObject({
    kind: z.literal('markup'),
    percent: z.number().min(0).max(500),
    rounding: z.enum(['none', 'whole', 'ninety_nine'] satisfies MarkupRounding[]).default('none'),
  }),
]);
export type PricingRule = z.infer<typeof PricingRuleSchema>;

/** The default rule: the upstream's recommended retail price. */
export const DEFAULT_PRICING_RULE: PricingRule = { kind: 'recommended_retail' };
