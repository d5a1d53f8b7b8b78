import { resolveNames } from './resolve-names.js';
/**
 * Records what an answer showed, without holding the answer: the store write runs on its own
 * and a failure is only logged (names are a convenience; the answer is what was asked for).
 */
export function rememberAnswer(known, op, result, args, where, onError) {
    if (!known || !op.remember)
        return;
    try {
        // `via`: the command words (`server ips`), so `/cloud server known` can say which answer taught a name.
        const via = op.command.replace(/^\/cloud /, '');
        const entries = op.remember(result, args).map((e) => ({ ...e, via }));
        if (entries.length > 0)
            known.remember(where.account, entries, where.now).catch(onError);
    }
    catch (e) {
        onError(e);
    }
}
/** The change flow's name steps over the names seen so far (none: ids are still checked and typed). */
export function nameSteps(known) {
    return {
        resolve: (op, args, account) => resolveNames(known, op, args, account),
        remember: (op, result, args, where, onError) => rememberAnswer(known, op, result, args, where, onError),
    };
}
//# sourceMappingURL=name-steps.js.map