/**
 * @module
 * One sandbox instance's whole state: options, the generated catalog, the clock, both environments, the
 * API keys with their rate-limit windows and the fault rules. `reset()` returns it to the seed.
 */
import type { Environment } from '@esim-embed/shared';
import { type Catalog, generateCatalog } from '../catalog/catalog-generator';
import { SandboxClock } from '../clock';
import type { FaultRule } from '../control/control-schemas';
import type { SandboxOptions } from '../options';
import { SEED_KEYS, type SeedKey } from '../seed/accounts';
import { EnvironmentState } from './environment-state';

/** An API key with its current rate limit and fixed one-minute window. */
export interface KeyState {
  seed: SeedKey;
  rateLimitPerMinute: number | null;
  windowStartMs: number;
  windowCount: number;
}

const catalogs = new Map<string, Catalog>();

/** The catalog of a seed and size, generated once per process. */
function catalogFor(seed: number, offerCount: number): Catalog {
  const key = `${seed}:${offerCount}`;
  let catalog = catalogs.get(key);
  if (!catalog) {
    catalog = generateCatalog({ seed, offerCount });
    catalogs.set(key, catalog);
  }
  return catalog;
}

/** Everything one sandbox instance knows. */
export class SandboxState {
  readonly options: SandboxOptions;
  readonly catalog: Catalog;
  readonly clock: SandboxClock;
  /** Signs page cursors (derived from the control secret and the seed). */
  readonly cursorSecret: string;
  environments!: Record<Environment, EnvironmentState>;
  keys!: Map<string, KeyState>;
  faults: FaultRule[] = [];

  constructor(options: SandboxOptions) {
    this.options = options;
    this.catalog = catalogFor(options.seed, options.offerCount);
    this.clock = new SandboxClock(options.clock);
    this.cursorSecret = `cursor:${options.controlSecret}:${options.seed}`;
    this.reset();
  }

  /** Back to the seed: accounts, keys, orders, versions, faults and the clock offset. */
  reset(): void {
    this.clock.resetOffset();
    const nowMs = this.clock.now();
    const settings = { seed: this.options.seed, nowMs, idempotencyTtlMs: this.options.idempotencyTtlMs };
    this.environments = {
      test: new EnvironmentState('test', settings),
      live: new EnvironmentState('live', settings),
    };
    this.keys = new Map(
      SEED_KEYS.map((seed) => [
        seed.key,
        { seed, rateLimitPerMinute: seed.rateLimitPerMinute, windowStartMs: 0, windowCount: 0 },
      ]),
    );
    this.faults = [];
  }

  /** Epoch milliseconds on the sandbox's clock. */
  now(): number {
    return this.clock.now();
  }
}
