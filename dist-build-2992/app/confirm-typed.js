import { typedMatches } from '../operations/typed-confirm.js';
import { buildNote } from '../views/click-views.js';
import { typedMismatchError } from '../views/modal-views.js';
export async function confirmTyped(deps, input) {
    const { recordId, typed, userId } = input;
    const record = await deps.store.get(recordId);
    const op = record ? deps.catalog.byId(record.opId) : undefined;
    const expected = record && op?.change?.typeToConfirm?.(record.args, record.facts);
    if (expected && !typedMatches(typed, expected))
        return { kind: 'errors', errors: { typed: typedMismatchError(expected) } };
    return {
        kind: 'accepted',
        async confirm() {
            const outcome = await deps.flow.confirm(recordId, userId, typed);
            if (!record)
                return undefined;
            if (outcome.kind === 'tell')
                return { channelId: record.channelId, reply: buildNote(outcome.text) };
            if (outcome.kind === 'show')
                return { channelId: record.channelId, reply: outcome.reply };
            return undefined;
        },
    };
}
//# sourceMappingURL=confirm-typed.js.map