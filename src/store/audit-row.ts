/** An audit row as both backends return it (tables.ts types the table with it). */
export interface AuditRow {
  id: number;
  at: number;
  user_id: string;
  channel_id: string | null;
  op_id: string;
  tier: string;
  args: string;
  outcome: string;
  error_code: string | null;
  confirmed_by: string | null;
  approved_by: string | null;
  operation_id: string | null;
  duration_ms: number | null;
  detail: string | null;
  account: string | null;
}
