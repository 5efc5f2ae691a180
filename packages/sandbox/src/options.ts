/**
 * @module
 * The sandbox's options and their defaults: catalog seed and size, quote TTL, order step delays, the
 * public base URL of links, the control API secret and whether fault injection is allowed.
 */
import { type Clock, systemClock } from './clock';

/** Delays between the order states, in milliseconds (0 makes an order complete on its next read). */
export interface StepDelays {
  /** `paid` → `provisioning`. */
  provisioning: number;
  /** `provisioning` → `delivered` (eSIM issued, billing captured) or `provisioning_failed`. */
  delivery: number;
  /** `delivered` → `completed`. */
  completion: number;
}

/** Everything that configures one sandbox instance. */
export interface SandboxOptions {
  /** Seed of the catalog, ids, ICCIDs and activation codes. Same seed, same data. */
  seed: number;
  /** How many offers the catalog holds (1..150 000). */
  offerCount: number;
  /** How long a quote holds its price. */
  quoteTtlSeconds: number;
  stepDelaysMs: StepDelays;
  /** How long provisioning takes in the `slow_provisioning` scenario. */
  slowProvisioningMs: number;
  /** Absolute base of every link the sandbox returns; null: the request's own origin. */
  publicBaseUrl: string | null;
  /** HTTPS base of brand logos (the contract wants public HTTPS); the sandbox also serves them at `/assets/logos/`. */
  brandAssetsBaseUrl: string;
  /** The secret of the `X-Sandbox-Control` header of `/__sandbox/*`. */
  controlSecret: string;
  /** Allows fault injection (latency, 5xx, dropped connections) through the control API. */
  faultInjection: boolean;
  /** The base clock; the control API can only move the sandbox's time forward from it. */
  clock: Clock;
  /** How long an idempotency key is remembered. */
  idempotencyTtlMs: number;
  /** The largest request body accepted. */
  maxBodyBytes: number;
  /** SM-DP+ address of issued profiles. */
  smdpAddress: string;
  /** Writes a JSON line per request to stdout (the Node entry turns it on). */
  accessLog: boolean;
}

/** The defaults: a catalog of 2 000 offers, 15-minute quotes, an order that completes in about 4 s. */
export const DEFAULT_SANDBOX_OPTIONS: SandboxOptions = {
  seed: 42,
  offerCount: 2000,
  quoteTtlSeconds: 900,
  stepDelaysMs: { provisioning: 800, delivery: 1500, completion: 1500 },
  slowProvisioningMs: 20_000,
  publicBaseUrl: null,
  brandAssetsBaseUrl: 'https://assets.sandbox.esim-embed.example',
  controlSecret: 'sandbox-control-secret',
  faultInjection: false,
  clock: systemClock,
  idempotencyTtlMs: 24 * 60 * 60 * 1000,
  maxBodyBytes: 64 * 1024,
  smdpAddress: 'smdp.sandbox.esim-embed.example',
  accessLog: false,
};

/** Options as a caller passes them: every field optional, step delays too. */
export type SandboxOptionsInput = Partial<Omit<SandboxOptions, 'stepDelaysMs'>> & {
  stepDelaysMs?: Partial<StepDelays>;
};

/**
 * Merges caller options over the defaults. A field given as `undefined` (an unset environment variable) keeps
 * its default, at every level: a spread would otherwise replace the default with `undefined`.
 */
export function resolveSandboxOptions(input: SandboxOptionsInput = {}): SandboxOptions {
  const { stepDelaysMs, ...rest } = input;
  return {
    ...DEFAULT_SANDBOX_OPTIONS,
    ...definedFields(rest),
    stepDelaysMs: { ...DEFAULT_SANDBOX_OPTIONS.stepDelaysMs, ...definedFields(stepDelaysMs ?? {}) },
  } satisfies SandboxOptions;
}

function definedFields<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
