export const systemClock = {
    now: () => Date.now(),
    sleep: (ms, signal) => new Promise((resolve, reject) => {
        if (signal?.aborted)
            return reject(signal.reason);
        const onAbort = () => {
            clearTimeout(timer);
            reject(signal.reason);
        };
        const timer = setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
export function createManualClock(startMs = Date.parse('2026-11-22T12:00:00Z')) {
    let now = startMs;
    let sleepers = [];
    const wake = () => {
        const due = sleepers.filter((s) => s.until <= now);
        sleepers = sleepers.filter((s) => s.until > now);
        for (const s of due)
            s.resolve();
    };
    return {
        now: () => now,
        sleep(ms, signal) {
            return new Promise((resolve, reject) => {
                if (signal?.aborted)
                    return reject(signal.reason);
                const sleeper = { until: now + Math.max(0, ms), resolve };
                sleepers.push(sleeper);
                signal?.addEventListener('abort', () => {
                    sleepers = sleepers.filter((s) => s !== sleeper);
                    reject(signal.reason);
                }, { once: true });
                if (ms <= 0)
                    wake();
            });
        },
        async advance(ms) {
            const target = now + ms;
            // Step through deadlines in order so chained sleeps each see their own moment.
            for (;;) {
                const next = sleepers.filter((s) => s.until <= target).sort((a, b) => a.until - b.until)[0];
                if (!next)
                    break;
                now = Math.max(now, next.until);
                wake();
                // Let woken code run (and possibly sleep again) before moving on.
                await new Promise((r) => setImmediate(r));
            }
            now = target;
            wake();
            await new Promise((r) => setImmediate(r));
        },
        set(epochMs) {
            now = epochMs;
            wake();
        },
        pendingSleeps: () => sleepers.length,
    };
}
//# sourceMappingURL=clock.js.map