/** Floating-point slack: a bucket refilled for exactly the computed time counts as full. */
const EPSILON = 1e-9;
export function defaultBurst(perMinute) {
    return Math.max(1, Math.floor((perMinute / 60) * 5));
}
export function createRequestBudget(opts) {
    const { clock, perMinute } = opts;
    if (!(perMinute > 0) || !Number.isFinite(perMinute))
        throw new RangeError(`perMinute must be a positive number, got ${perMinute}`);
    const burst = opts.burst ?? defaultBurst(perMinute);
    if (!(burst >= 1))
        throw new RangeError(`burst must be at least 1, got ${burst}`);
    const perMs = perMinute / 60_000;
    let tokens = burst;
    let refilledAt = clock.now();
    let pausedUntil = 0;
    let taken = 0;
    let waitedMs = 0;
    const queue = [];
    let pumping = false;
    const refill = () => {
        const now = clock.now();
        if (now > refilledAt) {
            tokens = Math.min(burst, tokens + (now - refilledAt) * perMs);
            refilledAt = now;
        }
    };
    /** Spends a token if one is there and no pause holds; false otherwise. */
    const trySpend = () => {
        if (clock.now() < pausedUntil)
            return false;
        refill();
        if (tokens < 1 - EPSILON)
            return false;
        tokens = Math.max(0, tokens - 1);
        taken++;
        return true;
    };
    /** Milliseconds until the head of the queue could go. */
    const waitMs = () => {
        const now = clock.now();
        if (now < pausedUntil)
            return pausedUntil - now;
        return Math.max(1, Math.ceil((1 - tokens) / perMs));
    };
    // One loop serves the queue in order; it runs only while someone waits.
    async function pump() {
        pumping = true;
        try {
            while (queue.length > 0) {
                if (trySpend()) {
                    const w = queue.shift();
                    if (w.signal && w.onAbort)
                        w.signal.removeEventListener('abort', w.onAbort);
                    waitedMs += clock.now() - w.since;
                    w.resolve();
                    continue;
                }
                await clock.sleep(waitMs());
            }
        }
        finally {
            pumping = false;
        }
    }
    return {
        perMinute,
        take(signal) {
            if (signal?.aborted)
                return Promise.reject(signal.reason);
            // Nobody ahead: go now if the bucket allows (FIFO holds, the queue is empty).
            if (queue.length === 0 && trySpend())
                return Promise.resolve();
            return new Promise((resolve, reject) => {
                const w = { since: clock.now(), resolve, reject };
                if (signal) {
                    w.signal = signal;
                    w.onAbort = () => {
                        const i = queue.indexOf(w);
                        if (i >= 0)
                            queue.splice(i, 1);
                        reject(signal.reason);
                    };
                    signal.addEventListener('abort', w.onAbort, { once: true });
                }
                queue.push(w);
                if (!pumping)
                    void pump();
            });
        },
        pause(ms) {
            const until = clock.now() + Math.max(0, ms);
            if (until <= pausedUntil)
                return;
            refill();
            pausedUntil = until;
            // What accrues during the pause is capped at one request: that one may go the moment
            // the pause ends, the rest follow at the steady rate.
            tokens = Math.min(1, tokens + (until - Math.max(clock.now(), refilledAt)) * perMs);
            refilledAt = until;
        },
        stats: () => ({ taken, waitedMs }),
    };
}
//# sourceMappingURL=request-budget.js.map