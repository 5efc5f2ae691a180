/**
 * @module
 * The addresses and secrets of the running stack, as the global setup hands them to the tests.
 */

/** The environment variable that carries {@link StackUrls} as JSON. */
export const STACK_ENV = 'E2E_STACK';

/** One sandbox the stack runs, and how to steer it. */
export interface SandboxHandle {
  url: string;
  controlSecret: string;
}

/** Everything a test needs to reach the stack. */
export interface StackUrls {
  /** The BFF every partner page talks to (also serves the demo at `/`). */
  bff: string;
  /** A second BFF whose sessions expire after 60 s; a test moves its clock (`CLOCK_PATH`) past them. */
  bffShortSession: string;
  /** A third BFF, with the shared one's sessions, whose clock a test moves (`CLOCK_PATH`) past a payment window. */
  bffMovableClock: string;
  /**
   * A fourth BFF, with 60-second sessions, whose clock a test moves (`CLOCK_PATH`) past a session between a create
   * and the page's reload (`reload-unsettled-create.spec.ts`).
   */
  bffLateReload: string;
  /** Partner pages on an allowed origin. */
  pages: string;
  /** The same pages on an origin that no widget allows. */
  foreignPages: string;
  /** The sandboxes by role. */
  sandboxes: Record<SandboxRole, SandboxHandle>;
  /** The partner secret of every `partner_confirm` widget of the test config. */
  partnerSecret: string;
  /** The sandbox's seeded account ids by name (`SANDBOX_ACCOUNTS`). */
  accounts: Record<'root' | 'globetrotter' | 'aurora' | 'lagoon' | 'shoestring', string>;
}

/**
 * Which sandbox a widget sells through: state-changing scenarios get their own, so tests run in parallel. `held`
 * and `tour` finish no order by themselves (`support/held-orders.ts`): `held` is the reload test's, `tour` the
 * layout check's (whose tests run one after another). `faults` is the one whose fault rules a test sets (a slow
 * `POST /orders`: `reload-unsettled-create.spec.ts`), so that no other test meets them.
 */
export const SANDBOX_ROLES = [
  'main',
  'shortQuote',
  'priceChange',
  'failure',
  'held',
  'tour',
  'faults',
] as const;

/** One of {@link SANDBOX_ROLES}. */
export type SandboxRole = (typeof SANDBOX_ROLES)[number];

/** The stack's URLs in a test process. */
export function stackUrls(): StackUrls {
  const raw = process.env[STACK_ENV];
  if (!raw)
    throw new Error(`${STACK_ENV} is not set: run the suite with \`npx playwright test\` (global setup).`);
  return JSON.parse(raw) as StackUrls;
}
