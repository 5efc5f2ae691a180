/**
 * @module
 * `@esim-embed/bff`: build a BFF from a config (`createBff`), serve it (`serveBff`), and the pieces tests
 * and the dev entry compose it from.
 */
export { type BffAppOptions, createBffApp } from './app';
export { type Bff, type CreateBffOptions, createBff } from './bff';
export {
  type BffConfig,
  type BffConfigInput,
  BffConfigSchema,
  type WidgetConfig,
} from './config/config-schema';
export { DEFAULT_SANDBOX_URL, DEMO_SECRET_DEFAULTS, defaultConfig } from './config/default-config';
export {
  ConfigError,
  type LoadedConfig,
  loadConfig,
  parseConfig,
  resolveSecrets,
} from './config/load-config';
export {
  addDemoConsoleUsers,
  DEMO_CONSOLE_PASSWORD,
  DEMO_CONSOLE_USERS,
} from './console/demo-console-users';
export { ApiError } from './errors';
export type { AppEnv } from './http/app-env';
export { createLogger, type Logger } from './logger';
export { type RunningOperations, type RunningServer, serveBff, serveOperations } from './node-server';
export type { BffMetrics } from './observability/metrics';
export type { Tracing } from './observability/tracing';
export { startTracing } from './observability/tracing-start';
export { createMemoryStore } from './store/memory-store';
export { createRedisStore } from './store/redis-store';
export { backupStore, restoreStore, type StoreCopy } from './store/sqlite-backup';
export { DataDirError } from './store/sqlite-data-dir';
export type { StoreFootprint, TableFootprint } from './store/sqlite-footprint';
export { openSqliteStore, type SqliteStore } from './store/sqlite-store';
export type { Store } from './store/store';
export {
  type ChosenStore,
  DEFAULT_DATA_DIR,
  describeStore,
  openStoreFromEnvironment,
} from './store/store-from-environment';
export type { WorkQueue } from './store/work-queue';
