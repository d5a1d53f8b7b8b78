/**
 * The store's contract. Every method is async so that a shared server database (several bot
 * replicas) can implement the same interfaces later; the SQLite store answers synchronously
 * underneath.
 */

export const OPERATION_STATUSES = [
  'pending',
  'confirmed',
  'running',
  'succeeded',
  'failed',
  'cancelled',
  'expired',
] as const;

export type OperationStatus = (typeof OPERATION_STATUSES)[number];

/** States an operation never leaves; reaching one erases its sealed secrets. */
export const TERMINAL_STATUSES: readonly OperationStatus[] = ['succeeded', 'failed', 'cancelled', 'expired'];

export interface OperationRecord {
  /** Random, URL/Slack-safe: 'op_' + 16 base32 characters (80 bits from node:crypto). */
  id: string;
  /** Catalog id, e.g. 'server.reinstall'. */
  opId: string;
  /** Validated arguments WITHOUT secrets (stored as JSON). */
  args: Record<string, unknown>;
  /** What the bot learned before asking (hostname, price, headroom); no secrets (JSON). */
  facts: Record<string, unknown>;
  /** Encrypted secret arguments (see seal.ts), null if none or once erased. */
  sealedSecrets: string | null;
  status: OperationStatus;
  requestedBy: string;
  teamId: string | null;
  channelId: string;
  /** The status message in the channel (set after posting). */
  messageTs: string | null;
  /** Unique when set: a retried slash command (same trigger_id) finds the existing record. */
  dedupeKey: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  confirmedBy: string | null;
  confirmedAt: number | null;
  /** For two-person approval (later). */
  approvedBy: string | null;
  approvedAt: number | null;
  finishedAt: number | null;
  /** Summary of the cloud's answer, secrets masked (stored as JSON). */
  result: Record<string, unknown> | null;
  errorCode: string | null;
  errorMessage: string | null;
  /** The named cloud account it acts on; null means the default account (and rows older than accounts). */
  account: string | null;
  /**
   * A confirmed change held in an undo window: nothing is sent before this moment (epoch ms),
   * and Undo may still take it back. Null: sent as soon as it is confirmed.
   */
  sendAt?: number | null;
}

export interface NewOperation {
  opId: string;
  args: Record<string, unknown>;
  facts?: Record<string, unknown>;
  sealedSecrets?: string | null;
  requestedBy: string;
  teamId?: string | null;
  channelId: string;
  dedupeKey?: string | null;
  expiresAt: number;
  /** Null or absent: the default account. */
  account?: string | null;
}

/** Fields a transition may set besides the status. */
export type OperationPatch = Partial<
  Pick<
    OperationRecord,
    | 'confirmedBy'
    | 'confirmedAt'
    | 'approvedBy'
    | 'approvedAt'
    | 'finishedAt'
    | 'result'
    | 'errorCode'
    | 'errorMessage'
    | 'sealedSecrets'
    | 'sendAt'
  >
>;

export interface TransitionRequest {
  /** The statuses the record must be in; anything else is refused with 'wrong_status'. */
  from: OperationStatus[];
  to: OperationStatus;
  /** Epoch ms: becomes updatedAt, and the moment compared with expiresAt. */
  now: number;
  /** Refuse (reason 'expired') when expiresAt <= now. */
  requireUnexpired?: boolean;
  /** Refuse (reason 'wrong_status') while sendAt > now: an undo window not over yet. */
  requireDue?: boolean;
  /**
   * Refuse (reason 'wrong_status') unless the record's updatedAt is still this: nothing moved it
   * since the caller read it, not even away from and back into a `from` status (a Retry sync
   * that failed again between a second click's read and its claim).
   */
  unchangedSince?: number;
  patch?: OperationPatch;
}

/**
 * Why a transition was refused. The current record is reported so the caller can say what
 * happened instead (`record.confirmedBy` already confirmed it, it was cancelled, …).
 * - not_found: no such id (record undefined).
 * - expired: requireUnexpired and expiresAt <= now, or the record is already 'expired'
 *   (and 'expired' was not in `from`).
 * - wrong_status: any other status outside `from`.
 */
export type TransitionResult =
  | { ok: true; record: OperationRecord }
  | { ok: false; record: OperationRecord | undefined; reason: 'not_found' | 'wrong_status' | 'expired' };

export interface OperationStore {
  /** Insert; if dedupeKey already exists, return the existing record with created=false (no second record). */
  create(input: NewOperation): Promise<{ record: OperationRecord; created: boolean }>;
  get(id: string): Promise<OperationRecord | undefined>;
  /** The record created with this dedupe key, if any (a card a stopped process posted but never noted). */
  byDedupeKey(key: string): Promise<OperationRecord | undefined>;
  /** Records where the status message was posted. Rejects if the record does not exist. */
  setMessage(id: string, channelId: string, messageTs: string): Promise<void>;
  /**
   * Atomic compare-and-set: only if status ∈ from (and, when requireUnexpired, expiresAt > now).
   * Applies the patch fields (a field present with null clears it, e.g. sealedSecrets: null).
   * Exactly one of N concurrent callers wins, across connections and processes.
   * Moving to a terminal status also erases sealedSecrets and, unless the patch sets it,
   * sets finishedAt = now.
   */
  transition(id: string, t: TransitionRequest): Promise<TransitionResult>;
  /** Move every pending record whose expiresAt <= now to 'expired' (erasing sealedSecrets); return them (so their messages can be edited). */
  expireDue(now: number): Promise<OperationRecord[]>;
  /** Records left 'confirmed' or 'running' by a crash, for start-up recovery (oldest first). */
  listUnfinished(): Promise<OperationRecord[]>;
  /** Newest first, for listings. */
  listRecent(opts: { limit: number; requestedBy?: string }): Promise<OperationRecord[]>;
  /** One channel's records created between `from` and `until` (inclusive), oldest first, at most `limit` (≤ 1000). */
  listDuring(opts: { channelId: string; from: number; until: number; limit: number }): Promise<OperationRecord[]>;
}
