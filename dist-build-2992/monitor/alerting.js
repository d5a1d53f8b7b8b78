import { buildAlertFollowUp, buildAlertMessage } from '../views/alert-views.js';
/** The buttons of an alert: reads of the catalog, checked and audited like typed commands. */
export function alertActions(kind, resource, account) {
    const on = account ? { account } : {};
    switch (kind) {
        case 'server':
            return [
                { label: 'Server status', op: 'server.status', args: { server: resource }, ...on },
                { label: 'Watch', op: 'server.status', args: { server: resource }, watch: true, ...on },
                { label: 'Credentials', op: 'server.credentials', args: { server: resource }, ...on },
            ];
        case 'worker':
            return [
                { label: 'Worker status', op: 'worker.status', args: { worker: resource }, ...on },
                { label: 'Watch', op: 'worker.status', args: { worker: resource }, watch: true, ...on },
            ];
        case 'usage':
            return [{ label: 'Account usage', op: 'account.usage', args: {}, ...on }];
        case 'invoices':
            return [{ label: 'Invoices', op: 'account.invoices', args: {}, ...on }];
    }
}
export function createAlerting(deps) {
    const input = (sub, a, now) => {
        const account = deps.accountLabel?.(sub.account);
        return {
            kind: sub.kind,
            resource: sub.resource,
            condition: a.condition,
            detail: a.detail,
            status: a.status,
            startedAt: a.startedAt,
            resolvedAt: a.resolvedAt,
            now,
            ...(account ? { account } : {}),
            subscriptionId: sub.id,
            actions: alertActions(sub.kind, sub.resource, sub.account),
        };
    };
    async function fire(sub, condition, detail) {
        const now = deps.clock.now();
        const opened = await deps.alerts.open({ subscriptionId: sub.id, channelId: sub.channelId, condition, startedAt: now, detail });
        if (!opened.created)
            return; // already firing: another poll (or replica) posted it
        const reply = buildAlertMessage(input(sub, opened.record, now));
        try {
            const posted = await deps.queue.post({ channel: sub.channelId, text: reply.text, blocks: reply.blocks });
            await deps.alerts.setMessage(opened.record.id, posted.ts);
        }
        catch (error) {
            deps.logger.warn('could not post an alert', { subscription: sub.id, condition, error });
        }
    }
    async function resolve(sub, alert, quiet) {
        const now = deps.clock.now();
        const resolved = await deps.alerts.resolve(alert.id, now);
        if (!resolved || !resolved.messageTs)
            return;
        const view = input(sub, resolved, now);
        try {
            const edited = buildAlertMessage(view);
            await deps.queue.update({ channel: sub.channelId, ts: resolved.messageTs, text: edited.text, blocks: edited.blocks });
            if (!quiet) {
                const note = buildAlertFollowUp(view);
                await deps.queue.post({ channel: sub.channelId, thread_ts: resolved.messageTs, text: note.text, blocks: note.blocks });
            }
        }
        catch (error) {
            deps.logger.warn('could not show an alert resolved', { subscription: sub.id, alert: alert.id, error });
        }
    }
    /**
     * The subscription against what holds now (its resource's committed state): firing alerts
     * whose condition is gone resolve; a condition that holds without a firing alert fires, be it
     * new, one that came while the subscription was muted, or one that held when it was made.
     * Muted: nothing new is posted. A channel that may no longer read it: its watching ends.
     */
    async function sync(sub, now) {
        if (deps.allowed && !deps.allowed(sub))
            return unwatch(sub, 'policy');
        const muted = sub.mutedUntil !== null && sub.mutedUntil > deps.clock.now();
        const firing = await deps.alerts.listFiring(sub.id);
        for (const a of firing)
            if (!now.has(a.condition))
                await resolve(sub, a, muted);
        if (muted)
            return;
        const open = new Set(firing.map((a) => a.condition));
        const missing = [...now].filter(([condition]) => !open.has(condition));
        if (!missing.length)
            return;
        // The monitor's copy may be seconds old: one removed or muted since then stays quiet.
        const current = deps.subscriptions ? await deps.subscriptions.get(sub.id) : sub;
        if (!current || current.removedAt !== null || (current.mutedUntil !== null && current.mutedUntil > deps.clock.now()))
            return;
        for (const [condition, detail] of missing)
            await fire(sub, condition, detail);
    }
    /**
     * The watching ends (unsubscribed, or the channel may no longer read it), not the problem:
     * each firing alert is closed and its message says what was last seen. Nothing is posted.
     */
    async function unwatch(sub, why) {
        for (const alert of await deps.alerts.listFiring(sub.id)) {
            const now = deps.clock.now();
            const closed = await deps.alerts.resolve(alert.id, now, { unwatched: why });
            if (!closed || !closed.messageTs)
                continue;
            const edited = buildAlertMessage(input(sub, closed, now));
            await deps.queue
                .update({ channel: sub.channelId, ts: closed.messageTs, text: edited.text, blocks: edited.blocks })
                .catch((error) => deps.logger.warn('could not show an alert no longer watched', { subscription: sub.id, alert: alert.id, error }));
        }
    }
    return { sync, unwatch };
}
//# sourceMappingURL=alerting.js.map