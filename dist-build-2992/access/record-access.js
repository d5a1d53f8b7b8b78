/** The channel and account a check about this record uses. */
export function placeOf(access, record) {
    return { channelId: record.channelId, account: record.account ?? access.policy().defaultAccount };
}
/** A read: it changes neither the cloud nor the bot's own state (a subscription, an alias, a mute). */
export function isRead(op) {
    return !op.change && !op.mutates && op.tier !== 'change' && op.tier !== 'destroy';
}
/** The person's right to act on the record with `op`: decided in its channel, on its account. */
export function checkOnRecord(access, userId, record, op) {
    const at = placeOf(access, record);
    return access.check(userId, at.channelId, op, at.account);
}
/** May this person be shown the record: every read it stands for, in its channel, on its account. */
export async function mayReadRecord(access, userId, record, reads) {
    if (!reads.length)
        return false;
    for (const op of reads)
        if (!op || !(await checkOnRecord(access, userId, record, op)).ok)
            return false;
    return true;
}
/** Arguments in one canonical form (keys sorted), so a click's value compares with what was drawn. */
function canonical(v) {
    if (Array.isArray(v))
        return `[${v.map(canonical).join(',')}]`;
    if (v && typeof v === 'object') {
        return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
    }
    return JSON.stringify(v) ?? 'undefined';
}
/**
 * The button drawn on the record that a click's value names — same operation, arguments and
 * account — and only if it is a read; else undefined (a forged or outdated value does nothing).
 */
export function drawnRead(drawn, clicked, opOf) {
    const hit = drawn.find((d) => d.op === clicked.op && d.account === clicked.account && canonical(d.args) === canonical(clicked.args));
    const op = hit && opOf(hit.op);
    return hit && op && isRead(op) ? hit : undefined;
}
//# sourceMappingURL=record-access.js.map