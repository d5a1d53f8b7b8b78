/**
 * The request a change sends, as shown by `--dry-run`, in the status message and the audit
 * trail: read from the entry's own `run` (change-request.ts), never written by hand.
 */
export interface CloudRequest {
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
}
