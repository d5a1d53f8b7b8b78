import { drawnRead, placeOf } from '../access/record-access.js';
import { alertActions } from '../monitor/alerting.js';
import { SNOOZE_CHOICES } from '../views/alert-views.js';
import { readButtonValue } from './button-value.js';
import { admit } from './guard.js';
import { runOperation } from './run-operation.js';
import { startWatchByHand } from './watch-commands.js';
export async function handleAlertClick(deps, click) {
    if (click.button === 'snooze')
        return snooze(deps, click);
    const drawn = await drawnOn(deps, click, click.button === 'watch');
    if (!drawn)
        return { kind: 'unreadable' };
    const { op, args, sub } = drawn;
    const account = placeOf(deps.access, sub).account;
    if (click.button === 'run') {
        const actor = { userId: click.userId, channelId: sub.channelId, teamId: click.teamId };
        const reply = admit(deps, op, actor.userId, sub.channelId, args, account).then(async (admitted) => admitted.ok ? (await runOperation(deps, op, args, actor, admitted.account)).reply : admitted.reply);
        return { kind: 'work', what: op.command, reply };
    }
    if (!op.watchable || !deps.watcher)
        return { kind: 'unreadable' };
    const actor = { userId: click.userId, channelId: sub.channelId };
    const watcher = deps.watcher;
    const reply = admit(deps, op, actor.userId, sub.channelId, args, account).then(async (admitted) => admitted.ok ? startWatchByHand({ ...deps, watcher }, op, { ...args, watch: true }, actor, admitted.account) : admitted.reply);
    return { kind: 'work', what: op.command, reply };
}
async function snooze(deps, click) {
    const sub = await alertAt(deps, click);
    const op = deps.catalog.byId('mute.set');
    const value = snoozeValue(click.value);
    // Only the snoozes drawn: this alert's subscription, for one of the offered times.
    const drawn = sub && value && value.sub === sub.id && SNOOZE_CHOICES.some((c) => c.ms === value.ms);
    const args = op && drawn ? op.schema.safeParse({ target: value.sub, duration: `${Math.round(value.ms / 60_000)}m` }) : undefined;
    if (!op || !sub || !args?.success)
        return { kind: 'unreadable' };
    const actor = { userId: click.userId, channelId: sub.channelId, teamId: click.teamId };
    // Snoozing is `/cloud mute <subscription> <duration>`: the same check, the same audit entry.
    const reply = admit(deps, op, actor.userId, sub.channelId, {}, placeOf(deps.access, sub).account).then(async (admitted) => admitted.ok ? (await runOperation(deps, op, args.data, actor, admitted.account)).reply : admitted.reply);
    return { kind: 'work', what: op.command, reply };
}
/** The subscription of the firing alert whose message was clicked, in the channel it was posted to. */
async function alertAt(deps, click) {
    const { channelId, messageTs: ts } = click;
    if (!channelId || !ts)
        return undefined;
    const alert = (await deps.alertStores.alerts.listFiring()).find((a) => a.channelId === channelId && a.messageTs === ts);
    const sub = alert ? await deps.alertStores.subscriptions.get(alert.subscriptionId) : undefined;
    return sub && sub.removedAt === null && sub.channelId === channelId ? sub : undefined;
}
/** The read this alert drew that the click's value names (its drawn arguments and account), if any. */
async function drawnOn(deps, click, watch) {
    const run = readButtonValue(click.value, deps.catalog);
    const sub = run ? await alertAt(deps, click) : undefined;
    if (!run || !sub)
        return undefined;
    const drawn = (alertActions(sub.kind, sub.resource, sub.account) ?? []).flatMap((a) => {
        const args = !!a.watch === watch ? deps.catalog.byId(a.op)?.schema.safeParse(a.args) : undefined;
        return args?.success ? [{ ...a, args: args.data }] : [];
    });
    const hit = drawnRead(drawn, { op: run.op.id, args: run.args, account: run.account }, (id) => deps.catalog.byId(id));
    const op = hit && deps.catalog.byId(hit.op);
    return hit && op ? { op, args: hit.args, sub } : undefined;
}
function snoozeValue(raw) {
    try {
        const v = JSON.parse(raw ?? '');
        return typeof v.sub === 'string' && typeof v.ms === 'number' && v.ms >= 60_000 ? { sub: v.sub, ms: v.ms } : undefined;
    }
    catch {
        return undefined;
    }
}
//# sourceMappingURL=alert-clicks.js.map