/** A steps row (migration 12) as both backends return it (JSON as text). */
export interface StepRow {
  execution_id: string;
  callback_id: string;
  workflow: string | null;
  channel_id: string | null;
  requested_by: string | null;
  inputs: string;
  status: string;
  operation_id: string | null;
  outcome: string | null;
  outputs: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  next_check_at: number;
  lease_owner: string | null;
  lease_until: number | null;
}
