/**
 * Retried deliveries (issue 21): when Slack thinks a request was lost it sends the very same
 * body again, marked `x-slack-retry-num` / `x-slack-retry-reason` over HTTP and `retry_attempt`
 * in a Socket Mode envelope (Bolt puts both in `context.retryNum`/`retryReason`). A retry of a
 * delivery already taken — by this process or by another replica — is acked and goes no
 * further, so `server credentials` delivered four times shows the password once. Changes were
 * never sent twice (their records are keyed by the trigger id); this keeps reads, forms and
 * Home from being answered twice too.
 *
 * A delivery is known by its `trigger_id` (every slash command and interaction carries a fresh
 * one) or, for an event, its `event_id`. Keys are remembered for a while longer than Slack goes
 * on retrying, in two places: this process's memory (at most MAX_REMEMBERED; a retry that came
 * back here costs no store round trip) and the store's `deliveries` table, shared by replicas.
 * Every delivery with a key claims it in the store as it is answered: a retry cannot tell
 * which replica took the original, so the original must have been written down wherever it
 * landed. A claim is a primary-key INSERT (… ON CONFLICT DO UPDATE of an expired key): measured
 * at ~0.2 ms on SQLite and ~1.2 ms on a local PostgreSQL one by one (2,000 claims in a row on the
 * shared 2-core test machine), against Slack's 3 s. Claims wait for their turn of the loop and
 * go together, one statement for every claim made meanwhile, so under load the store sees one
 * write for many deliveries. A retry is answered only by whoever claims its key.
 */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { DELIVERY_KEY_MAX, type DeliveryStore } from '../store/delivery-store.js';
import { nextTurn } from '../turns.js';

/** Slack retries an HTTP delivery three times within about 5 minutes; kept twice as long. */
export const REMEMBER_MS = 10 * 60_000;
/** ~100 bytes each: about a megabyte at most, whatever the traffic. */
export const MAX_REMEMBERED = 10_000;
/**
 * Longest wait for the store's answer about a retry this process has not seen: its ack waits
 * too, and must stay well inside Slack's 3 s (a locked SQLite file is waited for up to 2 s).
 */
export const CLAIM_WAIT_MS = 500;
/** Expired keys are deleted every this many claims (about as many rows each time). */
export const PRUNE_EVERY = 256;
/** Most keys claimed in one statement. */
export const CLAIM_BATCH = 200;

export interface DeliveryMemory {
  /** Remembers `key`; true when it was remembered already (a delivery seen before). */
  seen(key: string): boolean;
  size(): number;
}

export function createDeliveryMemory(clock: Pick<Clock, 'now'>, rememberMs = REMEMBER_MS, max = MAX_REMEMBERED): DeliveryMemory {
  // Insertion order is expiry order (one lifetime for all), so the oldest go first.
  const until = new Map<string, number>();
  return {
    seen(key) {
      const now = clock.now();
      for (const [k, expires] of until) {
        if (expires > now && until.size < max) break;
        until.delete(k);
      }
      if (until.has(key)) return true;
      until.set(key, now + rememberMs);
      return false;
    },
    size: () => until.size,
  };
}

/** What makes a delivery the same one: its trigger id, or an event's id. */
export function deliveryKey(body: unknown): string | undefined {
  const b = (body ?? {}) as { trigger_id?: unknown; event_id?: unknown };
  if (typeof b.event_id === 'string' && b.event_id) return `event:${b.event_id}`;
  if (typeof b.trigger_id === 'string' && b.trigger_id) return `trigger:${b.trigger_id}`;
  return undefined;
}

export interface RetriedDeliveryDeps {
  clock: Pick<Clock, 'now' | 'sleep'>;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Deliveries taken, shared by replicas. */
  deliveries: DeliveryStore;
}

type Claim = 'claimed' | 'taken' | 'unknown';

/** Global middleware: a retry of a delivery already taken, here or on another replica, is acked and dropped. */
export function skipRetriedDeliveries(deps: RetriedDeliveryDeps): Middleware<AnyMiddlewareArgs> {
  const memory = createDeliveryMemory(deps.clock);
  let claims = 0;

  // Claims wait for their turn of the loop (turns.ts), and every claim made meanwhile goes in
  // the same statement: under load one write (one round trip on PostgreSQL) takes many keys,
  // instead of one per delivery on the loop every ack waits on.
  let batch = new Map<string, ((c: Claim) => void)[]>();
  let flushing = false;

  const flush = async (): Promise<void> => {
    const taking = batch;
    batch = new Map();
    const keys = [...taking.keys()];
    for (let i = 0; i < keys.length; i += CLAIM_BATCH) {
      const chunk = keys.slice(i, i + CLAIM_BATCH);
      const now = deps.clock.now();
      const outcome = await deps.deliveries.claimMany(chunk, now, now + REMEMBER_MS).then(
        (won) => (key: string): Claim => (won.has(key) ? 'claimed' : 'taken'),
        (e: unknown) => {
          deps.logger.warn('could not record a delivery in the store', { error: describe(e), keys: chunk.length });
          return (): Claim => 'unknown';
        },
      );
      // A key claimed twice here (forgotten by the memory meanwhile): the first claim took it.
      for (const key of chunk) taking.get(key)!.forEach((resolve, n) => resolve(n === 0 ? outcome(key) : 'taken'));
    }
  };

  /** Claims `key` in the store: whether this process took it, or why it cannot say. */
  const claim = (key: string): Promise<Claim> => {
    if (++claims % PRUNE_EVERY === 0) {
      deps.deliveries.prune(deps.clock.now()).catch((e: unknown) => deps.logger.warn('could not prune deliveries taken', { error: describe(e) }));
    }
    // Not a Slack id: the store would refuse it, and with it the keys claimed alongside.
    if (key.length > DELIVERY_KEY_MAX) {
      deps.logger.warn('could not record a delivery in the store', { error: `key longer than ${DELIVERY_KEY_MAX} characters` });
      return Promise.resolve('unknown');
    }
    return new Promise<Claim>((resolve) => {
      const waiting = batch.get(key);
      if (waiting) waiting.push(resolve);
      else batch.set(key, [resolve]);
      schedule();
    });
  };
  /** One batch at a time: claims made while one is written go in the next. */
  const schedule = (): void => {
    if (flushing) return;
    flushing = true;
    void nextTurn()
      .then(flush)
      .finally(() => {
        flushing = false;
        if (batch.size > 0) schedule();
      });
  };

  /** The store's word on a retry, or 'unknown' when it did not answer within CLAIM_WAIT_MS. */
  const claimWithin = async (key: string): Promise<Claim> => {
    const timer = new AbortController();
    const late = deps.clock.sleep(CLAIM_WAIT_MS, timer.signal).then(
      (): Claim => 'unknown',
      (): Claim => 'unknown',
    );
    try {
      return await Promise.race([claim(key), late]);
    } finally {
      timer.abort();
    }
  };

  return async (args) => {
    const key = deliveryKey(args.body);
    if (!key) return args.next();
    const { retryNum, retryReason } = args.context;
    const retry = retryNum !== undefined && retryNum > 0;
    const seenHere = memory.seen(key);
    if (!retry) {
      // Written down as it is answered, not waited for: the ack never waits on the store, and a
      // store that is down or slow does not stop a first delivery (failing closed would take
      // every command down with the store). Slack retries only after this delivery's ack was
      // late or failed, by which time the insert has landed. Its answer does not matter here.
      if (!seenHere) void claim(key);
      return args.next();
    }
    // A retry is answered only when it claims the key. When the store cannot say, it is not:
    // the store is the only witness of a first delivery on another replica, answering a read of
    // a secret twice is the harm this guards against, and a person can simply run it again.
    const outcome = seenHere ? 'taken' : await claimWithin(key);
    if (outcome !== 'claimed') {
      // Events are acked by Bolt already; commands and interactions are acked here.
      const ack = (args as { ack?: () => Promise<void> }).ack;
      if (ack) await ack();
      const kind = key.slice(0, key.indexOf(':'));
      if (outcome === 'unknown') deps.logger.warn('retried delivery not answered: the store could not say whether it was taken', { retryNum, retryReason, kind });
      else deps.logger.info('retried delivery already taken; not answered again', { retryNum, retryReason, kind, ...(seenHere ? {} : { by: 'another replica' }) });
      return;
    }
    await args.next();
  };
}

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));
