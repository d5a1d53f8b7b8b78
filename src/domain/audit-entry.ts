/**
 * The audit trail's contract (issue: access control, secrets, audit). Every operation — read,
 * change, refusal — becomes one entry: stored, written as a structured log line, and posted
 * to AUDIT_CHANNEL when set. Arguments arrive already masked; an entry never holds a secret.
 */
import type { Tier } from './tier.js';

export type AuditOutcome =
  /** A read answered, or a change done. */
  | 'succeeded'
  /** The cloud refused, or the bot failed. */
  | 'failed'
  /** Access control said no (errorCode ACCESS_DENIED or CHANNEL_NOT_ALLOWED). */
  | 'refused'
  /** A change asked for confirmation or approval. */
  | 'requested'
  | 'cancelled'
  | 'expired';

export interface AuditEntry {
  id: number;
  /** Epoch ms. */
  at: number;
  userId: string;
  channelId: string | null;
  /** Catalog id, e.g. `server.reinstall`. */
  opId: string;
  tier: Tier;
  /** Arguments with secrets masked. */
  args: Record<string, unknown>;
  outcome: AuditOutcome;
  /** The cloud's error code, or the bot's (ACCESS_DENIED, CHANNEL_NOT_ALLOWED, INTERNAL…). */
  errorCode: string | null;
  confirmedBy: string | null;
  approvedBy: string | null;
  /** The change's operation record, if any. */
  operationId: string | null;
  durationMs: number | null;
  /** A short human note (the role needed, the request line…); no secrets. */
  detail: string | null;
  /** The named cloud account acted on; null means the default account (and entries older than accounts). */
  account: string | null;
}

type OptionalAuditField = 'errorCode' | 'confirmedBy' | 'approvedBy' | 'operationId' | 'durationMs' | 'detail' | 'channelId' | 'account';

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at' | OptionalAuditField> & Partial<Pick<AuditEntry, OptionalAuditField>>;

export interface Auditor {
  /** Never throws: a failing audit sink is logged, the operation goes on. */
  record(entry: NewAuditEntry): Promise<void>;
  /** Newest first. */
  list(query: { userId?: string; limit: number }): Promise<AuditEntry[]>;
}
