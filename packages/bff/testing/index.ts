/**
 * @module
 * `@esim-embed/bff/testing`: the BFF's test support for the suites outside the package (reliability, bench) —
 * a sandbox and BFF stack on free ports, a widget-page client, a real redis-server, a relay that can cut the
 * upstream, and the internals those suites check against. Never imported by the BFF's own runtime code, and
 * left out of its build, which bundles only what `src/server.ts` reaches.
 */
import { fileURLToPath } from 'node:url';

/** The file production starts (`src/server.ts`), for suites that run the BFF as its own process. */
export const BFF_SERVER_ENTRY = fileURLToPath(new URL('../src/server.ts', import.meta.url));
/** The built BFF, as production runs it (`pnpm --filter @esim-embed/bff build` writes it). */
export const BFF_BUNDLE = fileURLToPath(new URL('../dist/server.js', import.meta.url));

export { API_ROUTES as ROUTES, type ApiRouteId as RouteId, type RouteSpec } from '@esim-embed/shared';
export { createReservationLedger } from '../src/funding/reservation-ledger';
export { deriveKey } from '../src/security/key-ring';
export { createUpstreamBudget } from '../src/upstream/upstream-budget';
export { runForUpstreamCaller } from '../src/upstream/upstream-caller';
export { type BoughtEsim, buyEsim, untilReady } from './after-sale-flow';
export {
  addConsoleUser,
  type ConsoleBrowser,
  consoleBrowser,
  currentTotp,
  type TestConsoleUser,
} from './console-client';
export { type LogoAnswer, type LogoHost, startLogoHost, TINY_PNG } from './logo-host';
export { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './otlp-receiver';
export { quickstartServerOf } from './partner-quickstart';
export { makePurchase, recordPurchaseCalls, type StoreCall } from './purchase-calls';
export {
  createRecordingStore,
  type RecordingStore,
  type StoreSnapshot,
  type StoreWrite,
  snapshotChanges,
} from './recording-store';
export {
  freePort,
  type RunningRedis,
  type RunningRedisCluster,
  startRedisCluster,
  startRedisSentinel,
  startRedisServer,
} from './redis-server';
export { placeRelease, releaseOutsideTheRepo } from './release-folder';
export {
  type Answer,
  awayFromTheMinuteEnd,
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  SHOP_ORIGIN,
  type Stack,
  type StackOptions,
  startBff,
  startStack,
  TEST_ENV,
  testConfig,
  UNANSWERED_UPSTREAM,
  type WidgetPage,
  withUpstream,
} from './stack';
export { startTestRelay, type TestRelay } from './test-relay';
export {
  checkoutAsTraveller,
  checkoutOnPage,
  openCheckoutOnPage,
  quoteOnPage,
} from './traveller-checkout';

export {
  postingWebhooksTo,
  startReceiver as startWebhookReceiver,
  type WebhookReceiver,
} from './webhook-receiver';
