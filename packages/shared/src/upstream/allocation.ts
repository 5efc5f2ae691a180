/**
 * @module
 * Allocations: moving prepaid funds to an account.
 */
import { z } from 'zod';
import { NonNegativeMoneySchema, responseEnvelope } from './upstream-common';

/** Fund an account, optionally from a given source account. */
export const AllocationRequestSchema = z.strictObject({
  amount: NonNegativeMoneySchema,
  sourceAccountId: z.string().min(1).max(128).optional(),
});
export type AllocationRequest = z.infer<typeof AllocationRequestSchema>;

/** The allocation's transaction; `deduplicated` when an identical request was already applied. */
export const AllocationResultSchema = z.strictObject({
  transactionId: z.string(),
  amount: NonNegativeMoneySchema,
  deduplicated: z.boolean(),
});
export type AllocationResult = z.infer<typeof AllocationResultSchema>;

export const AllocationResponseSchema = responseEnvelope(AllocationResultSchema);
export type AllocationResponse = z.infer<typeof AllocationResponseSchema>;
