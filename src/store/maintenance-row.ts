/** A `maintenance_windows` row (migration 14) as the query builder sees it; maintenance-store.ts maps it. */
export interface MaintenanceRow {
  id: string;
  channel_id: string;
  account: string | null;
  kind: string;
  resource: string;
  created_by: string;
  created_at: number;
  starts_at: number;
  ends_at: number;
  ended_at: number | null;
  ended_by: string | null;
  muted: string;
  summary_claimed_by: string | null;
  /** Migration 17: when the claim ends, unless the summary was posted; null: it never ends. */
  summary_claimed_until: number | null;
  summary_ts: string | null;
}
