/**
 * @module
 * The BFF's own test support (a sandbox and BFF stack on free ports, a widget-page client, a real
 * redis-server), re-exported from one place so that the reliability suites build on the same helpers as the
 * BFF's tests instead of copies of them.
 */

export { ROUTES, type RouteSpec } from '../../../packages/bff/src/routes/route-table';
export { deriveKey } from '../../../packages/bff/src/security/key-ring';
export { type RunningRedis, startRedisServer } from '../../../packages/bff/src/testing/redis-server';
export {
  type Answer,
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
  type WidgetPage,
} from '../../../packages/bff/src/testing/stack';
export { startTestRelay, type TestRelay } from '../../../packages/bff/src/upstream/test-relay';
