/** The whole store: one of each, over SQLite or PostgreSQL (create-store.ts picks). */
import type { AliasStore } from './alias-types.js';
import type { AuditStore } from './audit-store.js';
import type { DeliveryStore } from './delivery-store.js';
import type { MaintenanceStore } from './maintenance-store.js';
import type { KnownResourceStore } from './known-types.js';
import type { AlertStore, LeaseStore, MonitorStateStore, SubscriptionStore } from './monitor-types.js';
import type { OperationStore } from './types.js';
import type { WatchStore } from './watch-store.js';
import type { ScheduleStore } from './schedule-types.js';
import type { StepStore } from './step-store.js';

export interface Store {
  operations: OperationStore;
  watches: WatchStore;
  audit: AuditStore;
  subscriptions: SubscriptionStore;
  alerts: AlertStore;
  monitorState: MonitorStateStore;
  leases: LeaseStore;
  /** Servers, groups and workers seen in the cloud's answers (names → ids). */
  known: KnownResourceStore;
  /** Commands saved under a word, per channel (`/cloud alias`). */
  aliases: AliasStore;
  /** Slack deliveries taken, shared by replicas (a retry is not answered twice). */
  deliveries: DeliveryStore;
  /** `/cloud schedule`: commands run later, and their runs claimed per occurrence. */
  schedules: ScheduleStore;
  /** Maintenance windows (issue 25): alerts held back, and the end summary claimed once. */
  maintenance: MaintenanceStore;
  /** Workflow steps under way, by function_execution_id (issue 23). */
  steps: StepStore;
  /** Resolves once the schema is migrated (PostgreSQL migrates in the background; SQLite at open). */
  ready?(): Promise<void>;
  /** Idempotent. */
  close(): Promise<void>;
}
