/**
 * The tables as the query builder sees them (schema.ts creates them): times are epoch-ms
 * numbers and JSON columns are text on both backends (pool.ts leaves jsonb as text).
 */
import type { Generated } from 'kysely';
import type { AliasRow } from './alias-types.js';
import type { AuditRow } from './audit-row.js';
import type { KnownNameRow, KnownRow } from './known-rows.js';
import type { AlertRow, SubscriptionRow } from './monitor-rows.js';
import type { OperationRow } from './operation-rows.js';
import type { WatchRow } from './watch-row.js';
import type { ScheduleRow, ScheduleRunRow } from './schedule-types.js';
import type { MaintenanceRow } from './maintenance-row.js';
import type { StepRow } from './step-row.js';

export interface Tables {
  operations: OperationRow;
  watches: Omit<WatchRow, 'polls'> & { polls: Generated<number> };
  audit: Omit<AuditRow, 'id'> & { id: Generated<number> };
  subscriptions: Omit<SubscriptionRow, 'run_tries'> & { run_tries: Generated<number> };
  alerts: Omit<AlertRow, 'edit_owed'> & { edit_owed: Generated<number> };
  monitor_state: { key: string; state: string; updated_at: number };
  leases: { name: string; owner: string; until: number };
  known_resources: KnownRow;
  known_names: KnownNameRow & { account: string; kind: string };
  aliases: AliasRow;
  deliveries: { key: string; taken_at: number; expires_at: number };
  schedules: ScheduleRow;
  schedule_runs: ScheduleRunRow;
  maintenance_windows: MaintenanceRow;
  steps: StepRow;
}
