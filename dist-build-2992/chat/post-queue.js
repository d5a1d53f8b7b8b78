import { SlackApiError } from './slack-api.js';
/** Channels remembered before drained ones are forgotten. */
const PRUNE_AT = 256;
const RATE_LIMITED = new Set(['ratelimited', 'rate_limited']);
export function isRateLimited(e) {
    return e instanceof SlackApiError && RATE_LIMITED.has(e.code);
}
export function createPostQueue(opts) {
    const { slack, clock, logger } = opts;
    const spacingMs = opts.spacingMs ?? 1000;
    const channels = new Map();
    /** Waits for this channel's spacing, then makes the call. */
    const paced = async (q, call) => {
        const wait = Number.isNaN(q.lastAt) ? 0 : q.lastAt + spacingMs - clock.now();
        if (wait > 0)
            await clock.sleep(wait);
        q.lastAt = clock.now();
        return call();
    };
    /** Forgets drained channels whose spacing no longer matters (keeps the map small). */
    const prune = () => {
        const now = clock.now();
        for (const [id, q] of channels)
            if (q.pending === 0 && !(q.lastAt + spacingMs > now))
                channels.delete(id);
    };
    function enqueue(channel, what, call) {
        let q = channels.get(channel);
        if (!q) {
            if (channels.size >= PRUNE_AT)
                prune();
            q = { tail: Promise.resolve(), lastAt: NaN, pending: 0 };
            channels.set(channel, q);
        }
        const queue = q;
        queue.pending++;
        const result = queue.tail.then(async () => {
            try {
                return await paced(queue, call);
            }
            catch (e) {
                if (!isRateLimited(e))
                    throw e;
                const waitMs = e.retryAfterMs ?? spacingMs;
                logger.info('Slack asked to slow down; waiting before one more try', { channel, method: what, waitMs });
                await clock.sleep(Math.max(0, waitMs));
                return paced(queue, call);
            }
        });
        // The chain goes on whatever this call's fate; the caller gets the failure.
        queue.tail = result.then(() => undefined, () => undefined);
        void queue.tail.then(() => void queue.pending--);
        return result;
    }
    return {
        post: (message) => enqueue(message.channel, 'chat.postMessage', () => slack.postMessage(message)),
        update: (message) => enqueue(message.channel, 'chat.update', () => slack.update(message)),
        async idle() {
            for (;;) {
                const tails = [...channels.values()].filter((q) => q.pending > 0).map((q) => q.tail);
                if (tails.length === 0)
                    return;
                await Promise.all(tails);
            }
        },
    };
}
//# sourceMappingURL=post-queue.js.map