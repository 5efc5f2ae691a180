/**
 * @module
 * `@esim-embed/sandbox`: a Partner eSIM Commerce API for the `test` environment (and a separate `live`),
 * with seeded accounts and keys, deterministic scenarios, a control API and fault injection.
 */
export { createSandbox, createSandboxApp, type Sandbox } from './app';
export { type Clock, createManualClock, SandboxClock, systemClock } from './clock';
export * from './control/control-schemas';
export { type ControlClient, type ControlClientOptions, createControlClient } from './control-client';
export { API_KEY_HEADER } from './http/api-key-auth';
export type { SandboxEnv } from './http/sandbox-env';
export {
  DEFAULT_SANDBOX_OPTIONS,
  resolveSandboxOptions,
  type SandboxOptions,
  type SandboxOptionsInput,
  type StepDelays,
} from './options';
export { PAGE_LIMIT } from './routes/catalog-routes';
export {
  SANDBOX_ACCOUNTS,
  SANDBOX_KEYS,
  SEED_ACCOUNTS,
  SEED_KEYS,
  type SeedAccount,
  type SeedKey,
} from './seed/accounts';
export { type RunningSandbox, type StartSandboxOptions, startSandbox } from './start-sandbox';
