/**
 * @module
 * The stack the browser tests run against, started by the global setup in a child process: sandboxes (one
 * shared, and one per state-changing scenario so that tests run in parallel without stepping on each other),
 * four BFFs with the test config (two with 60-second sessions; three whose clock a test moves), the demo served
 * by the BFF with the demo partner server mounted beside it, and the partner pages on an allowed and on a foreign
 * loopback origin.
 * Everything listens on 127.0.x.x free ports. It prints one `E2E_STACK {json}` line and runs until SIGTERM.
 */
import { SANDBOX_ACCOUNTS, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { formatCsp, strictPartnerCsp } from '@esim-embed/widget';
import { HELD_DELIVERY_MS } from './held-orders';
import { startPageServer } from './page-server';
import type { SandboxHandle, SandboxRole, StackUrls } from './stack-urls';
import { type RunningBff, startTestBff } from './test-bff';
import { testBffConfig } from './test-config';

const CONTROL_SECRET = 'e2e-sandbox-control';
const FAST_STEPS = { provisioning: 100, delivery: 300, completion: 200 };
/** An order that is delivered when the test moves the sandbox's clock (`held-orders.ts`). */
const HELD_STEPS = { provisioning: 100, delivery: HELD_DELIVERY_MS, completion: 200 };

/**
 * The strict policy of the CSP page: the one the widget publishes (`strictPartnerCsp`; the test brands' logos
 * are on the BFF), so the policy the docs show is the one Chromium enforces. `{{bff}}` is filled per page.
 */
const STRICT_CSP = formatCsp(strictPartnerCsp({ bffOrigin: '{{bff}}' }));

async function main(): Promise<void> {
  const closers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // The runner holds our stdin open; when it dies without a teardown (killed, crashed), so does the stack.
  process.stdin.once('close', stop);
  process.stdin.resume();

  const sandboxOptions: Record<SandboxRole, Parameters<typeof startSandbox>[0]> = {
    main: { stepDelaysMs: FAST_STEPS },
    shortQuote: { stepDelaysMs: FAST_STEPS, quoteTtlSeconds: 6 },
    priceChange: { stepDelaysMs: FAST_STEPS },
    failure: { stepDelaysMs: FAST_STEPS },
    held: { stepDelaysMs: HELD_STEPS },
    tour: { stepDelaysMs: HELD_STEPS },
    faults: { stepDelaysMs: FAST_STEPS },
  };
  const sandboxes = {} as Record<SandboxRole, SandboxHandle>;
  await Promise.all(
    (Object.entries(sandboxOptions) as [SandboxRole, Parameters<typeof startSandbox>[0]][]).map(
      async ([role, options]) => {
        const sandbox = await startSandbox({
          ...options,
          hostname: '127.0.0.1',
          port: 0,
          controlSecret: CONTROL_SECRET,
          faultInjection: true,
        });
        closers.push(() => sandbox.close());
        sandboxes[role] = { url: sandbox.url, controlSecret: CONTROL_SECRET };
      },
    ),
  );

  // The partner pages: one origin every test widget allows, one that none does. The allowed one is on another
  // site than the BFF (localhost vs 127.0.0.1), as on the web: what works only same-site (cookies, a
  // `same-site` resource policy) fails here as it would for a real partner.
  const pageValues: Record<string, string> = {};
  const pages = await startPageServer({
    host: '127.0.0.1',
    hostname: 'localhost',
    values: pageValues,
    headers: { '/strict-csp.html': { 'Content-Security-Policy': STRICT_CSP } },
  });
  const foreignPages = await startPageServer({ host: '127.0.0.2', values: pageValues });
  closers.push(pages.close, foreignPages.close);

  const sandboxUrls = Object.fromEntries(
    Object.entries(sandboxes).map(([role, handle]) => [role, handle.url]),
  ) as Record<SandboxRole, string>;
  const keys = {
    globetrotter: SANDBOX_KEYS.globetrotter,
    aurora: SANDBOX_KEYS.aurora,
    lagoon: SANDBOX_KEYS.lagoon,
    root: SANDBOX_KEYS.root,
    shoestring: SANDBOX_KEYS.shoestring,
    harbour: SANDBOX_KEYS.harbour,
  };

  // The BFFs, started side by side: the shared one, whose time is real; one with 60-second sessions, whose clock
  // session-expiry.spec.ts moves past them instead of waiting a minute; one with the shared one's sessions whose
  // clock partner-payment-lifecycle.spec.ts moves past a checkout's payment window; and one more with 60-second
  // sessions, whose clock reload-unsettled-create.spec.ts moves past a session between a create and the reload
  // (its own, so that no other test's session ends meanwhile).
  const bffKinds = [
    { sessionTtlSeconds: 900, movableClock: false },
    { sessionTtlSeconds: 60, movableClock: true },
    { sessionTtlSeconds: 900, movableClock: true },
    { sessionTtlSeconds: 60, movableClock: true },
  ];
  const [bff, bffShortSession, bffMovableClock, bffLateReload] = (await Promise.all(
    bffKinds.map(async ({ sessionTtlSeconds, movableClock }) => {
      const started = await startTestBff(
        (bffOrigin) =>
          testBffConfig({
            sandboxes: sandboxUrls,
            keys,
            allowedOrigins: [pages.origin, bffOrigin],
            sessionTtlSeconds,
            partnerServerUrl: bffOrigin,
          }),
        { movableClock },
      );
      closers.push(started.close);
      return started;
    }),
  )) as [RunningBff, RunningBff, RunningBff, RunningBff];
  pageValues.bff = bff.origin;

  const urls: StackUrls = {
    bff: bff.origin,
    bffShortSession: bffShortSession.origin,
    bffMovableClock: bffMovableClock.origin,
    bffLateReload: bffLateReload.origin,
    pages: pages.origin,
    foreignPages: foreignPages.origin,
    sandboxes,
    partnerSecret: bff.partnerSecret,
    accounts: { ...SANDBOX_ACCOUNTS },
  };
  console.log(`E2E_STACK ${JSON.stringify(urls)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
