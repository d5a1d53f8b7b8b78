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
export function createDeliveryMemory(clock, rememberMs = REMEMBER_MS, max = MAX_REMEMBERED) {
    // Insertion order is expiry order (one lifetime for all), so the oldest go first.
    const until = new Map();
    return {
        seen(key) {
            const now = clock.now();
            for (const [k, expires] of until) {
                if (expires > now && until.size < max)
                    break;
                until.delete(k);
            }
            if (until.has(key))
                return true;
            until.set(key, now + rememberMs);
            return false;
        },
        size: () => until.size,
    };
}
/** What makes a delivery the same one: its trigger id, or an event's id. */
export function deliveryKey(body) {
    const b = (body ?? {});
    if (typeof b.event_id === 'string' && b.event_id)
        return `event:${b.event_id}`;
    if (typeof b.trigger_id === 'string' && b.trigger_id)
        return `trigger:${b.trigger_id}`;
    return undefined;
}
/** Global middleware: a retry of a delivery already taken, here or on another replica, is acked and dropped. */
export function skipRetriedDeliveries(deps) {
    const memory = createDeliveryMemory(deps.clock);
    let claims = 0;
    /** Claims `key` in the store: whether this process took it, or why it cannot say. */
    const claim = (key) => {
        const now = deps.clock.now();
        if (++claims % PRUNE_EVERY === 0) {
            deps.deliveries.prune(now).catch((e) => deps.logger.warn('could not prune deliveries taken', { error: describe(e) }));
        }
        return deps.deliveries.claim(key, now, now + REMEMBER_MS).then((won) => (won ? 'claimed' : 'taken'), (e) => {
            deps.logger.warn('could not record a delivery in the store', { error: describe(e) });
            return 'unknown';
        });
    };
    /** The store's word on a retry, or 'unknown' when it did not answer within CLAIM_WAIT_MS. */
    const claimWithin = async (key) => {
        const timer = new AbortController();
        const late = deps.clock.sleep(CLAIM_WAIT_MS, timer.signal).then(() => 'unknown', () => 'unknown');
        try {
            return await Promise.race([claim(key), late]);
        }
        finally {
            timer.abort();
        }
    };
    return async (args) => {
        const key = deliveryKey(args.body);
        if (!key)
            return args.next();
        const { retryNum, retryReason } = args.context;
        const retry = retryNum !== undefined && retryNum > 0;
        const seenHere = memory.seen(key);
        if (!retry) {
            // Written down as it is answered, not waited for: the ack never waits on the store, and a
            // store that is down or slow does not stop a first delivery (failing closed would take
            // every command down with the store). Slack retries only after this delivery's ack was
            // late or failed, by which time the insert has landed. Its answer does not matter here.
            if (!seenHere)
                void claim(key);
            return args.next();
        }
        // A retry is answered only when it claims the key. When the store cannot say, it is not:
        // the store is the only witness of a first delivery on another replica, answering a read of
        // a secret twice is the harm this guards against, and a person can simply run it again.
        const outcome = seenHere ? 'taken' : await claimWithin(key);
        if (outcome !== 'claimed') {
            // Events are acked by Bolt already; commands and interactions are acked here.
            const ack = args.ack;
            if (ack)
                await ack();
            const kind = key.slice(0, key.indexOf(':'));
            if (outcome === 'unknown')
                deps.logger.warn('retried delivery not answered: the store could not say whether it was taken', { retryNum, retryReason, kind });
            else
                deps.logger.info('retried delivery already taken; not answered again', { retryNum, retryReason, kind, ...(seenHere ? {} : { by: 'another replica' }) });
            return;
        }
        await args.next();
    };
}
const describe = (e) => (e instanceof Error ? e.message : String(e));
//# sourceMappingURL=retried-deliveries.js.map