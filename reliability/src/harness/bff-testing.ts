/**
 * @module
 * The BFF's own test support (a sandbox and BFF stack on free ports, a widget-page client, a real
 * redis-server), re-exported from one place so that the reliability suites build on the same helpers as the
 * BFF's tests instead of copies of them. It comes through the package's `./testing` export, never by path.
 */

export {
  type Answer,
  type BoughtEsim,
  buyEsim,
  call,
  checkoutAsTraveller,
  createRecordingStore,
  deriveKey,
  eventually,
  freePort,
  newKey,
  openWidget,
  PARTNER_SECRET,
  quickstartServerOf,
  type RecordingStore,
  ROUTES,
  type RouteId,
  type RouteSpec,
  type RunningBff,
  type RunningRedis,
  type RunningRedisCluster,
  releaseOutsideTheRepo,
  SHOP_ORIGIN,
  type Stack,
  type StackOptions,
  type StoreSnapshot,
  snapshotChanges,
  startBff,
  startRedisCluster,
  startRedisSentinel,
  startRedisServer,
  startStack,
  startTestRelay,
  startWebhookReceiver,
  TEST_ENV,
  type TestRelay,
  testConfig,
  untilReady,
  type WebhookReceiver,
  type WidgetPage,
  withUpstream,
} from '@esim-embed/bff/testing';
