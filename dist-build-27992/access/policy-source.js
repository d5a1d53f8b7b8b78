import { describePolicyChanges, describeWidenings } from './policy-diff.js';
import { PolicyFileChanging, PolicyFileError } from './policy-file.js';
/** A save takes milliseconds; a file still changing after this many reads waits for the next reload. */
const RETRIES = 5;
export function createPolicySource(deps) {
    let policy = deps.initial;
    let running;
    const retryMs = deps.retryMs ?? 500;
    function retryLater(trigger, attempt) {
        if (!deps.clock || attempt >= RETRIES)
            return;
        deps.clock.sleep(retryMs, deps.signal).then(() => queue(() => reload(trigger, attempt + 1)).catch((error) => deps.logger.error('policy reload failed', { error })), () => { });
    }
    async function reload(trigger, attempt = 0) {
        if (!deps.load)
            return { kind: 'unchanged' };
        let next;
        try {
            next = deps.load();
        }
        catch (e) {
            if (e instanceof PolicyFileChanging) {
                deps.logger.warn(`policy reload put off; the policy in force is unchanged. ${e.message}`, { trigger, attempt });
                retryLater(trigger, attempt);
                return { kind: 'changing', message: e.message };
            }
            if (!(e instanceof PolicyFileError))
                throw e;
            deps.logger.error(`policy reload refused; the policy in force is unchanged. ${e.message}`, { trigger });
            await deps.onRefused?.(e.message, trigger);
            return { kind: 'refused', message: e.message };
        }
        const changes = describePolicyChanges(policy, next);
        if (!changes.length)
            return { kind: 'unchanged' };
        const widenings = describeWidenings(policy, next);
        await deps.onChange?.(next, changes, trigger, widenings);
        policy = next;
        if (widenings.length)
            deps.logger.warn('policy reloaded: it WIDENS access', { trigger, widenings, changes });
        else
            deps.logger.info('policy reloaded', { trigger, changes });
        return { kind: 'changed', changes, widenings };
    }
    // One reload at a time: a SIGHUP during the interval's reload waits for it.
    function queue(run) {
        const next = (running ?? Promise.resolve()).then(run);
        running = next.catch(() => ({ kind: 'unchanged' }));
        return next;
    }
    return {
        current: () => policy,
        reload: (trigger) => queue(() => reload(trigger)),
    };
}
//# sourceMappingURL=policy-source.js.map