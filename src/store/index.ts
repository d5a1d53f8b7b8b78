export type {
  NewOperation,
  OperationPatch,
  OperationRecord,
  OperationStatus,
  OperationStore,
  TransitionRequest,
  TransitionResult,
} from './types.js';
export type { Store } from './store.js';
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
export { ALERT_ID_PATTERN, SUBSCRIPTION_ID_PATTERN, newAlertId, newSubscriptionId } from './ids.js';
export type {
  AlertRecord,
  AlertCount,
  AlertStatus,
  AlertStore,
  LeaseStore,
  MonitorStateStore,
  MonitorStores,
  NewAlert,
  NewSubscription,
  SubscriptionKind,
  SubscriptionRecord,
  SubscriptionStore,
} from './monitor-types.js';
export { ACCOUNT_WIDE_KINDS, ALERT_LIST_MAX, ALERT_STATUSES, SUBSCRIPTION_KINDS } from './monitor-rows.js';
export { AUDIT_LIST_MAX, AUDIT_OUTCOMES, AUDIT_TIERS, clampAuditLimit, createAuditStore } from './audit-store.js';
export type { AuditStore } from './audit-store.js';
export { createStore, isPostgresUrl, parseDatabaseUrl } from './create-store.js';
export type { CreateStoreOptions, DatabaseTarget } from './create-store.js';
export { createPostgresStore } from './postgres/postgres-store.js';
export type { PostgresStore, PostgresStoreOptions } from './postgres/postgres-store.js';
export { PG_MIGRATIONS, migratePostgres, pgSchemaVersion } from './postgres/migrations.js';
export { KNOWN_KINDS, KNOWN_LIST_MAX } from './known-types.js';
export type { KnownEntry, KnownKind, KnownResource, KnownResourceStore } from './known-types.js';
export { ALIASES_PER_CHANNEL, ALIAS_COMMAND_MAX } from './alias-types.js';
export type { AliasRecord, AliasStore, NewAlias } from './alias-types.js';
export { DELIVERY_KEY_MAX } from './delivery-store.js';
export type { DeliveryStore } from './delivery-store.js';
export type { MaintenanceStore, MaintenanceWindow, MaintenanceKind, MutedAlert } from './maintenance-store.js';
export type { NewStep, StepOutcome, StepRecord, StepStatus, StepStore } from './step-store.js';
export { StoreUnavailableError, isStoreUnavailable } from './errors.js';
export type { StoreFailureReason } from './errors.js';
export { LOCK_BUDGET_MS, createLockRetry, retryingMethods } from './sqlite-retry.js';
export type { LockRetryOptions, StoreRunner } from './sqlite-retry.js';
