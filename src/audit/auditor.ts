/**
 * The auditor: every entry goes to three sinks — the store, one structured log line, and (for
 * entries worth a post) AUDIT_CHANNEL. No sink may hold up or break the operation being
 * audited: `record` never throws, and the channel post runs in the background, in order.
 */
import { MASK, SECRET_KEY } from '../access/secrets.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { Tier } from '../operations/types.js';
import type { SlackApi } from '../chat/slack-api.js';
import { buildAuditLine } from '../views/audit-views.js';
import type { AuditStore } from '../store/audit-store.js';
import type { AuditEntry, Auditor, NewAuditEntry } from './types.js';

/** Tiers posted to the audit channel by default: everything but plain reads. Refusals are always posted. */
export const DEFAULT_POST_TIERS: readonly Tier[] = ['change', 'billing', 'destroy', 'secret'];
/** Posts waiting for Slack beyond this are dropped (stored and logged all the same). */
export const MAX_QUEUED_POSTS = 200;

export interface AuditorOptions {
  /** The audit table (`store.audit`). */
  store: Pick<AuditStore, 'insert' | 'list'>;
  logger: Logger;
  /** Needed to post; without it nothing is posted. */
  slack?: Pick<SlackApi, 'postMessage'>;
  /** AUDIT_CHANNEL: where entries worth a post go. */
  auditChannel?: string;
  clock: Pick<Clock, 'now'>;
  /** Tiers whose entries are posted (default DEFAULT_POST_TIERS); a refusal is posted whatever its tier. */
  postTiers?: readonly Tier[];
}

export interface AuditorService extends Auditor {
  /** Resolves once every post queued so far has been sent or given up on (tests; shutdown). */
  flush(): Promise<void>;
}

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
      try {
        const { id: _none, ...fields } = entry;
        const stored = await store.insert(fields);
        entry = { ...entry, id: stored.id };
      } catch (err) {
        // The entry itself still goes to the log line below (id null): the trail is not lost.
        safely(() => logger.error('audit store write failed', { error: err, opId: entry.opId, userId: entry.userId, at: entry.at }));
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
      // Posts queued while waiting are waited for too.
      for (;;) {
        const current = queue;
        await current;
        if (current === queue) return;
      }
    },
  };
}
