/**
 * @module
 * The Node entry's settings from environment variables (`SANDBOX_PORT`, `SANDBOX_SEED`, …), validated with
 * zod so a typo fails at start with a message instead of a strange sandbox.
 */
import { z } from 'zod';
import type { SandboxOptionsInput } from './options';

const number = (schema: z.ZodNumber) => z.coerce.number().pipe(schema).optional();
const flag = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'])
  .transform((value) => ['1', 'true', 'on', 'yes'].includes(value))
  .optional();

/** Every environment variable the sandbox reads. */
export const ServerEnvSchema = z.object({
  SANDBOX_PORT: number(z.number().int().min(0).max(65535)),
  SANDBOX_HOST: z.string().min(1).optional(),
  SANDBOX_SEED: number(z.number().int()),
  SANDBOX_OFFER_COUNT: number(z.number().int().min(1).max(150_000)),
  SANDBOX_QUOTE_TTL_SECONDS: number(z.number().int().min(1)),
  SANDBOX_STEP_DELAY_MS: number(z.number().int().min(0)),
  SANDBOX_PROVISIONING_DELAY_MS: number(z.number().int().min(0)),
  SANDBOX_DELIVERY_DELAY_MS: number(z.number().int().min(0)),
  SANDBOX_COMPLETION_DELAY_MS: number(z.number().int().min(0)),
  SANDBOX_SLOW_PROVISIONING_MS: number(z.number().int().min(0)),
  SANDBOX_PUBLIC_BASE_URL: z.url().optional(),
  SANDBOX_BRAND_ASSETS_BASE_URL: z.url({ protocol: /^https$/ }).optional(),
  SANDBOX_CONTROL_SECRET: z.string().min(8).optional(),
  SANDBOX_FAULTS: flag,
  SANDBOX_ACCESS_LOG: flag,
});

/** Where to listen and the sandbox's options. */
export interface ServerSettings {
  port: number;
  hostname: string;
  options: SandboxOptionsInput;
}

/** Reads the settings, or throws naming every bad variable. */
export function readServerSettings(env: Record<string, string | undefined>): ServerSettings {
  const result = ServerEnvSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; ');
    throw new Error(`sandbox settings are invalid: ${problems}`);
  }
  const e = result.data;
  const step = e.SANDBOX_STEP_DELAY_MS;
  return {
    port: e.SANDBOX_PORT ?? 8788,
    hostname: e.SANDBOX_HOST ?? '127.0.0.1',
    options: {
      seed: e.SANDBOX_SEED,
      offerCount: e.SANDBOX_OFFER_COUNT,
      quoteTtlSeconds: e.SANDBOX_QUOTE_TTL_SECONDS,
      stepDelaysMs: {
        provisioning: e.SANDBOX_PROVISIONING_DELAY_MS ?? step,
        delivery: e.SANDBOX_DELIVERY_DELAY_MS ?? step,
        completion: e.SANDBOX_COMPLETION_DELAY_MS ?? step,
      },
      slowProvisioningMs: e.SANDBOX_SLOW_PROVISIONING_MS,
      publicBaseUrl: e.SANDBOX_PUBLIC_BASE_URL,
      brandAssetsBaseUrl: e.SANDBOX_BRAND_ASSETS_BASE_URL,
      controlSecret: e.SANDBOX_CONTROL_SECRET,
      faultInjection: e.SANDBOX_FAULTS,
      accessLog: e.SANDBOX_ACCESS_LOG ?? true,
    },
  };
}
