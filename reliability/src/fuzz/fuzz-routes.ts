/**
 * @module
 * Fuzz every route of the API's description in one world, one route after another: what `pnpm fuzz` runs at
 * volume and the reliability suite runs with a fixed seed and a small count.
 */
import { PARTNER_SECRET, ROUTES, type RouteSpec, TEST_ENV } from '../harness/bff-testing';
import { type SecretBook, serverSecrets } from '../harness/secret-scan';
import { createFuzzWorld, OTHER_PARTNER_SECRET } from './fuzz-world';
import { fuzzRoute, type RouteTally } from './route-fuzzer';
import { inputsOf } from './route-inputs';

export interface FuzzRoutesOptions {
  numRuns: number;
  seed: number;
  /** Only these route ids (default: every route of the table). */
  only?: readonly string[];
  /** Told of each route as it finishes. */
  onRoute?: (tally: RouteTally) => void;
}

/** What a run found, and the logs of its BFF (to check them for errors and secrets). */
export interface FuzzRoutesResult {
  tallies: RouteTally[];
  logs: string[];
  /** The secrets of the run's world, by what they are (for a log scan). */
  secrets: SecretBook;
}

/** Fuzz the routes; throws before any request when a route of the table has no fuzz inputs. */
export async function fuzzRoutes(options: FuzzRoutesOptions): Promise<FuzzRoutesResult> {
  const routes: readonly RouteSpec[] =
    options.only === undefined ? ROUTES : ROUTES.filter((route) => options.only?.includes(route.id));
  if (options.only !== undefined && routes.length !== options.only.length)
    throw new Error(`unknown routes among ${options.only.join(', ')}`);
  const inputs = inputsOf(ROUTES);
  const world = await createFuzzWorld();
  try {
    const tallies: RouteTally[] = [];
    for (const route of routes) {
      const input = inputs.get(route);
      if (input === undefined) throw new Error(`${route.id}: no fuzz inputs`);
      const tally = await fuzzRoute(world, route, input, { numRuns: options.numRuns, seed: options.seed });
      tallies.push(tally);
      options.onRoute?.(tally);
    }
    const secrets = serverSecrets(TEST_ENV, PARTNER_SECRET, world.stack.sessionSecret);
    secrets.set('partner secret (other partner)', OTHER_PARTNER_SECRET);
    secrets.set('session token', world.page.token);
    secrets.set('client secret (waiting)', world.waiting.clientSecret);
    secrets.set('client secret (ready)', world.ready.clientSecret);
    secrets.set('manage token', world.esim.manageToken);
    secrets.set('manage token (help)', world.helpEsim.manageToken);
    return { tallies, logs: world.stack.logs, secrets };
  } finally {
    await world.close();
  }
}
