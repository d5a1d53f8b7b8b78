/**
 * One audit entry from what happened. Every path that audits — a read run, a refusal at the
 * door or before asking, each move of a change — builds its entry here, so arguments are
 * always masked and a change's entry always carries who confirmed, its record and the request.
 */
import { maskedArgs } from '../access/secrets.js';
export function auditEntry(input) {
    const { op, record: r, request } = input;
    return {
        userId: input.userId,
        channelId: input.channelId ?? null,
        opId: op.id,
        tier: op.tier,
        args: maskedArgs(op, input.args),
        outcome: input.outcome,
        errorCode: input.errorCode ?? r?.errorCode ?? null,
        confirmedBy: r?.confirmedBy ?? null,
        approvedBy: r?.approvedBy ?? null,
        operationId: r?.id ?? null,
        durationMs: input.durationMs ?? (r?.finishedAt ? r.finishedAt - (r.confirmedAt ?? r.createdAt) : null),
        detail: input.detail ?? (request ? `${request.method} ${request.path}` : null),
        account: input.account !== undefined ? input.account : (r?.account ?? null),
    };
}
//# sourceMappingURL=entry.js.map