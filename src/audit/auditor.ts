/**
 * The auditor: every entry goes to three sinks — the store, one structured log line, and (for
 * entries worth a post) AUDIT_CHANNEL. No sink may hold up or break the operation being
 * audited: `record` never throws, and the channel post runs in the background, in order.
 * An entry the store cannot take is never dropped: it is kept in memory and written again
 * (with backoff) until the store takes it, and logged whole at error level meanwhile, so a
 * crash before the store is back still leaves it in the log.
 *
 * Writes are group-committed: a write waits for its turn of the loop (turns.ts), and entries
 * recorded meanwhile, or while a write is in flight, go together (`insertMany`: one statement),
 * so under load the store sees one write per group (on SQLite, whose writes are synchronous,
 * the turn is what lets a group form), and an entry never waits for a timer to be written.
 */
import { MASK, SECRET_KEY } from '../access/secrets.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { Tier } from '../domain/tier.js';
import type { SlackApi } from '../chat/slack-api.js';
import { buildAuditLine } from '../views/audit-views.js';
import type { AuditStore } from '../store/audit-store.js';
import { isStoreUnavailable } from '../store/errors.js';
import type { AuditEntry, Auditor, NewAuditEntry } from '../domain/audit-entry.js';
import { nextTurn } from '../turns.js';

/** Tiers posted to the audit channel by default: everything but plain reads. Refusals are always posted. */
export const DEFAULT_POST_TIERS: readonly Tier[] = ['change', 'billing', 'destroy', 'secret'];
/** Posts waiting for Slack beyond this are dropped (stored and logged all the same). */
export const MAX_QUEUED_POSTS = 200;

export interface AuditorOptions {
  /** The audit table (`store.audit`); without `insertMany` a group is written entry by entry. */
  store: Pick<AuditStore, 'insert' | 'list'> & Partial<Pick<AuditStore, 'insertMany'>>;
  logger: Logger;
  /** Needed to post; without it nothing is posted. */
  slack?: Pick<SlackApi, 'postMessage'>;
  /** AUDIT_CHANNEL: where entries worth a post go. */
  auditChannel?: string;
  clock: Pick<Clock, 'now'>;
  /** Tiers whose entries are posted (default DEFAULT_POST_TIERS); a refusal is posted whatever its tier. */
  postTiers?: readonly Tier[];
  /** Writing kept entries again: pauses from firstDelayMs (200) doubling to maxDelayMs (10 s), through `sleep` (real timers by default). */
  storeRetry?: { sleep?: (ms: number) => Promise<void>; firstDelayMs?: number; maxDelayMs?: number };
}

export interface AuditorService extends Auditor {
  /**
   * Resolves once every post queued so far has been sent or given up on, and entries kept for
   * the store were tried once more (tests; shutdown). What the store still refuses stays kept
   * and is reported at error level (each entry is already in the log in full).
   */
  flush(): Promise<void>;
  /** Entries waiting for the store (not yet written). */
  pendingWrites(): number;
}

/** Kept entries beyond this are not held in memory any more (each is still logged in full at error level). */
export const MAX_PENDING_WRITES = 10_000;
/** Most entries in one group write. */
export const MAX_GROUP = 100;

/** Unsaved entry as every sink sees it: all fields present, `id` null until the store gives one. */
type Normalized = Omit<AuditEntry, 'id'> & { id: number | null };

const MAX_STRING = 1000;
const MAX_DETAIL = 500;
const MAX_DEPTH = 6;

/**
 * Defence in depth: arguments arrive masked, but a value under a secret-like key is masked
 * again here, and whatever is not plain JSON (bigint, functions, cycles) is made so.
 */
export function sanitizeArgs(args: unknown): Record<string, unknown> {
  const seen = new WeakSet<object>();
  const walk = (value: unknown, depth: number): unknown => {
    if (value === null || typeof value === 'boolean') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
    if (typeof value === 'string') return value.length > MAX_STRING ? value.slice(0, MAX_STRING - 1) + '…' : value;
    if (typeof value === 'bigint') return value.toString();
    if (typeof value !== 'object') return undefined; // undefined, function, symbol
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
    if (depth >= MAX_DEPTH || seen.has(value)) return '[…]';
    seen.add(value);
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1) ?? null);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const w = SECRET_KEY.test(k) && v !== null && v !== '' && (typeof v !== 'object' || Array.isArray(v)) ? MASK : walk(v, depth + 1);
      if (w !== undefined) out[k] = w;
    }
    return out;
  };
  const result = args !== null && typeof args === 'object' && !Array.isArray(args) ? walk(args, 0) : {};
  return result !== null && typeof result === 'object' && !Array.isArray(result) ? (result as Record<string, unknown>) : {};
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));
const optStr = (v: unknown, max = 200): string | null => {
  if (v === undefined || v === null || v === '') return null;
  const s = String(v);
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
};

const fieldsOf = (e: Normalized): Omit<AuditEntry, 'id'> => {
  const { id: _none, ...fields } = e;
  return fields;
};

function normalize(entry: NewAuditEntry, at: number): Normalized {
  const duration = entry.durationMs;
  return {
    id: null,
    at,
    userId: str(entry.userId),
    channelId: optStr(entry.channelId),
    opId: str(entry.opId),
    tier: entry.tier,
    args: sanitizeArgs(entry.args),
    outcome: entry.outcome,
    errorCode: optStr(entry.errorCode),
    confirmedBy: optStr(entry.confirmedBy),
    approvedBy: optStr(entry.approvedBy),
    operationId: optStr(entry.operationId),
    durationMs: typeof duration === 'number' && Number.isFinite(duration) ? Math.max(0, Math.round(duration)) : null,
    detail: optStr(entry.detail, MAX_DETAIL),
    account: optStr(entry.account),
  };
}

/** A logger call that cannot throw (a broken sink must not break `record`). */
function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    /* nothing left to tell */
  }
}

export function createAuditor(options: AuditorOptions): AuditorService {
  const { store, logger, slack, auditChannel, clock } = options;
  const postTiers = new Set<Tier>(options.postTiers ?? DEFAULT_POST_TIERS);
  const posting = Boolean(auditChannel && slack);
  if (auditChannel && !slack) safely(() => logger.warn('audit channel set but no Slack API: entries are not posted', { auditChannel }));

  let queue: Promise<void> = Promise.resolve();
  let queued = 0;
  let droppedSince = 0;
  /** The code of the last failed post: the same failure again is not warned about until a post succeeds. */
  let failing: string | null = null;

  const worthPosting = (e: Normalized) => postTiers.has(e.tier) || e.outcome === 'refused';

  // Entries the store did not take, oldest first; written again by `drain` until it does.
  const pending: Normalized[] = [];
  let draining: Promise<void> | null = null;
  let keptDropped = 0;
  const retry = options.storeRetry ?? {};
  const firstDelay = Math.max(1, retry.firstDelayMs ?? 200);
  const maxDelay = Math.max(firstDelay, retry.maxDelayMs ?? 10_000);
  // unref: waiting to write an audit entry must not keep a stopping process alive.
  const sleep = retry.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));

  async function write(e: Normalized): Promise<AuditEntry> {
    return store.insert(fieldsOf(e));
  }

  // Group commit: what is recorded while a write is in flight waits for the next write, together.
  const waiting: { e: Normalized; resolve: (stored: AuditEntry) => void; reject: (err: unknown) => void }[] = [];
  let writing = false;
  function writeGrouped(e: Normalized): Promise<AuditEntry> {
    return new Promise((resolve, reject) => {
      waiting.push({ e, resolve, reject });
      if (!writing) void writeGroups();
    });
  }
  async function writeGroups(): Promise<void> {
    writing = true;
    try {
      // The write waits its turn (turns.ts), so entries recorded by the steps of this turn go
      // with it: SQLite writes synchronously, and nothing is ever in flight to gather behind.
      await nextTurn();
      while (waiting.length > 0) {
        const group = waiting.splice(0, MAX_GROUP);
        if (group.length > 1 && store.insertMany) {
          try {
            const stored = await store.insertMany(group.map((g) => fieldsOf(g.e)));
            group.forEach((g, i) => g.resolve(stored[i]!));
            continue;
          } catch (err) {
            if (isStoreUnavailable(err)) {
              for (const g of group) g.reject(err);
              continue;
            }
            // Refused (all or none): one bad entry must not take the others with it.
          }
        }
        for (const g of group) await write(g.e).then(g.resolve, g.reject);
      }
    } finally {
      writing = false;
    }
  }

  /** Keeps an entry the store did not take, logging it whole (masked already) so a crash cannot lose it. */
  function keep(e: Normalized, err: unknown, first: boolean): void {
    if (pending.length >= MAX_PENDING_WRITES) {
      if (keptDropped++ === 0) safely(() => logger.error('audit entries kept for the store exceed the limit: further ones are only in the log', { limit: MAX_PENDING_WRITES }));
    } else {
      pending.push(e);
    }
    safely(() =>
      logger.error(
        first ? 'audit store write failed: the entry is kept and written again when the store answers' : 'audit entry kept for the store (it is still unavailable)',
        { ...(first ? { error: err } : {}), audit: { ...e }, pendingWrites: pending.length },
      ),
    );
    draining ??= drain().finally(() => {
      draining = null;
    });
  }

  /** Writes kept entries in order, pausing with backoff while the store still refuses. */
  async function drain(): Promise<void> {
    let delay = firstDelay;
    while (pending.length > 0) {
      await sleep(delay);
      if (!(await writePending())) delay = Math.min(delay * 2, maxDelay);
    }
  }

  /** One pass over the kept entries; false if the store refused again (the rest stay kept). One pass at a time, so no entry is written twice. */
  let passing: Promise<boolean> | null = null;
  function writePending(): Promise<boolean> {
    passing ??= writePass().finally(() => {
      passing = null;
    });
    return passing;
  }

  async function writePass(): Promise<boolean> {
    while (pending.length > 0) {
      const e = pending[0]!;
      try {
        const stored = await write(e);
        pending.shift();
        safely(() => logger.info('audit entry written after the store came back', { auditId: stored.id, at: e.at, opId: e.opId, userId: e.userId, pendingWrites: pending.length }));
      } catch (err) {
        if (isStoreUnavailable(err)) {
          safely(() => logger.debug('audit store still unavailable for kept entries', { error: err, pendingWrites: pending.length }));
          return false;
        }
        // Refused for good: holding it would hold every entry behind it. It is in the log in full.
        pending.shift();
        safely(() => logger.error('audit store refused a kept entry: it is only in the log', { error: err, at: e.at, opId: e.opId, userId: e.userId }));
      }
    }
    if (keptDropped > 0) {
      safely(() => logger.error('audit entries were not kept for the store (only in the log)', { count: keptDropped }));
      keptDropped = 0;
    }
    return true;
  }

  async function post(e: Normalized): Promise<void> {
    try {
      const reply = buildAuditLine(e);
      await slack!.postMessage({ channel: auditChannel!, text: reply.text, blocks: reply.blocks });
      if (failing !== null) safely(() => logger.info('audit channel posts work again', { auditChannel }));
      failing = null;
    } catch (err) {
      const code = str((err as { code?: unknown } | null)?.code) || (err instanceof Error ? err.name : 'unknown');
      const fields = { auditChannel, code, auditId: e.id, opId: e.opId, error: err };
      if (failing === code) {
        safely(() => logger.debug('audit post failed again', fields));
      } else {
        safely(() =>
          logger.warn(
            code === 'not_in_channel' || code === 'channel_not_found'
              ? 'audit post failed: invite the bot to the audit channel (further failures like this are not logged until a post succeeds)'
              : 'audit post failed (further failures like this are not logged until a post succeeds)',
            fields,
          ),
        );
      }
      failing = code;
    }
  }

  function enqueue(e: Normalized): void {
    if (queued >= MAX_QUEUED_POSTS) {
      if (droppedSince++ === 0) safely(() => logger.warn('audit posts are backing up: dropping posts (entries are still stored and logged)', { auditChannel, queued }));
      return;
    }
    if (droppedSince > 0) {
      const dropped = droppedSince;
      droppedSince = 0;
      safely(() => logger.warn('audit posts dropped while Slack was slow', { auditChannel, dropped }));
    }
    queued++;
    queue = queue.then(() => post(e)).finally(() => {
      queued--;
    });
  }

  return {
    async record(input) {
      let entry: Normalized;
      try {
        entry = normalize(input, clock.now());
      } catch (err) {
        safely(() => logger.error('audit entry unreadable; not recorded', { error: err, opId: (input as { opId?: unknown } | null)?.opId }));
        return;
      }
      if (pending.length > 0) {
        // The store is refusing: join the queue at once (in order) instead of waiting on it.
        keep(entry, undefined, false);
      } else {
        try {
          const stored = await writeGrouped(entry);
          entry = { ...entry, id: stored.id };
        } catch (err) {
          if (isStoreUnavailable(err)) keep(entry, err, true);
          // A refusal (a bad field, a closed store) would refuse again: the log line keeps it.
          else safely(() => logger.error('audit store refused the entry: it is only in the log', { error: err, audit: { ...entry } }));
        }
      }
      safely(() => logger.info('audit', { audit: { ...entry } }));
      if (posting && worthPosting(entry)) {
        try {
          enqueue(entry);
        } catch (err) {
          safely(() => logger.error('audit post not queued', { error: err }));
        }
      }
    },

    list(query) {
      return store.list(query);
    },

    async flush() {
      if (pending.length > 0 && !(await writePending().catch(() => false))) {
        safely(() => logger.warn('audit entries still not stored: kept, and each is in the log above in full', { pendingWrites: pending.length }));
      }
      // Posts queued while waiting are waited for too.
      for (;;) {
        const current = queue;
        await current;
        if (current === queue) return;
      }
    },

    pendingWrites: () => pending.length,
  };
}
