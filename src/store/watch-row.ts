/** A watches row as both backends return it (times as numbers, state as JSON text). */
export interface WatchRow {
  id: string;
  kind: string;
  resource: string;
  operation_id: string | null;
  channel_id: string;
  thread_ts: string | null;
  requested_by: string;
  status: string;
  state: string | null;
  outcome: string | null;
  polls: number;
  interval_ms: number;
  started_at: number;
  deadline_at: number;
  next_poll_at: number;
  updated_at: number;
  final_ts: string | null;
  lease_owner: string | null;
  lease_until: number | null;
  account: string | null;
  /** JSON text of a WatchUnread (migration 18). */
  unread: string | null;
}
