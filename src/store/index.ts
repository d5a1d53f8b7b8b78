export type {
  NewOperation,
  OperationPatch,
  OperationRecord,
  OperationStatus,
  OperationStore,
  Store,
  TransitionRequest,
  TransitionResult,
} from './types.js';
export { OPERATION_STATUSES, TERMINAL_STATUSES } from './types.js';
export { createSqliteStore } from './sqlite-store.js';
export type { SqliteStoreOptions } from './sqlite-store.js';
export { MIGRATIONS, MigrationError, migrate, schemaVersion } from './migrations.js';
export type { Migration } from './migrations.js';
export { createSealer, SealError } from './seal.js';
export type { Sealer } from './seal.js';
export { isOperationId, newOperationId } from './ids.js';
export { createWatchStore } from './watch-store.js';
export type { NewWatch, WatchKind, WatchPatch, WatchRecord, WatchState, WatchStatus, WatchStore } from './watch-store.js';
export { newWatchId, WATCH_ID_PATTERN } from './ids.js';
export { AUDIT_LIST_MAX, AUDIT_OUTCOMES, AUDIT_TIERS, clampAuditLimit, createAuditStore } from './audit-store.js';
export type { AuditStore } from './audit-store.js';
export { createStore, isPostgresUrl, parseDatabaseUrl } from './create-store.js';
export type { CreateStoreOptions, DatabaseTarget } from './create-store.js';
export { createPostgresStore } from './postgres/postgres-store.js';
export type { PostgresStore, PostgresStoreOptions } from './postgres/postgres-store.js';
export { PG_MIGRATIONS, migratePostgres, pgSchemaVersion } from './postgres/migrations.js';
export { StoreUnavailableError, isStoreUnavailable } from './errors.js';
export type { StoreFailureReason } from './errors.js';
export { LOCK_BUDGET_MS, createLockRetry, retryingMethods } from './sqlite-retry.js';
export type { LockRetryOptions, StoreRunner } from './sqlite-retry.js';
