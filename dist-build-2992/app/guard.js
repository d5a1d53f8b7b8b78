import { channelRule } from '../access/policy.js';
import { auditEntry } from '../audit/entry.js';
import { buildAccessRefusal } from '../views/access-views.js';
const ERROR_CODES = {
    channel: 'CHANNEL_NOT_ALLOWED',
    unlisted: 'CHANNEL_NOT_ALLOWED',
    account: 'ACCOUNT_NOT_ALLOWED',
    ceiling: 'CHANNEL_CEILING',
    'account-ceiling': 'ACCOUNT_CEILING',
    role: 'ACCESS_DENIED',
};
function refusalDetail(d) {
    const rule = `rule ${d.rule.key}`;
    switch (d.reason) {
        case 'channel':
            return 'not an allowed channel (CLOUD_CHANNELS)';
        case 'unlisted':
            return `channel not in the policy; ${rule}: deny`;
        case 'account':
            return `account ${d.account} not allowed here; ${rule}`;
        case 'ceiling':
        case 'account-ceiling':
            return `above the ceiling (${d.ceiling.join(', ') || 'nothing'}); ${rule}`;
        case 'role':
            return `needs ${d.needed}; has ${d.role ?? 'no role'} (${d.rule.key})`;
    }
}
/** The account a command here would have gone to (audit entries of refusals name it). */
function channelAccount(access, channelId) {
    const rule = channelRule(access.policy(), channelId);
    return rule === 'deny' ? null : rule.account;
}
/** Allowed (and on which account), or the refusal to show. */
export async function admit(deps, op, userId, channelId, args = {}, account) {
    const decision = await deps.access.check(userId, channelId, op, account);
    if (decision.ok)
        return { ok: true, account: decision.account };
    await deps.auditor?.record(auditEntry({
        op,
        userId,
        channelId,
        args,
        account: decision.reason === 'account' || decision.reason === 'account-ceiling' ? decision.account : (account ?? channelAccount(deps.access, channelId)),
        outcome: 'refused',
        errorCode: ERROR_CODES[decision.reason],
        detail: refusalDetail(decision),
    }));
    return { ok: false, reply: buildAccessRefusal(decision, op.command, op.tier) };
}
/** undefined when allowed; otherwise the refusal to show. */
export async function guard(deps, op, userId, channelId, args = {}, account) {
    const admitted = await admit(deps, op, userId, channelId, args, account);
    return admitted.ok ? undefined : admitted.reply;
}
/**
 * Thrown from inside an operation when the record it acts on refuses the person (a watch's
 * channel or account, checked — and audited — by the control that found it): run-operation
 * answers with `reply` and records no success.
 */
export class RefusedByRecord extends Error {
    reply;
    constructor(reply) {
        super('refused by the record it acts on');
        this.reply = reply;
        this.name = 'RefusedByRecord';
    }
}
//# sourceMappingURL=guard.js.map