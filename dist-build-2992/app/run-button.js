import { readButtonValue } from './button-value.js';
import { admit } from './guard.js';
import { runOperation } from './run-operation.js';
/** Runs the read a button names, if `accepts` it (the surface says which reads its buttons draw). */
export function runButton(deps, value, actor, accepts) {
    const run = readButtonValue(value, deps.catalog);
    if (!run || !accepts(run.op))
        return { kind: 'unreadable' };
    // The account the button was drawn for (`--account`), checked like the typed flag.
    const { op, args, account } = run;
    const reply = admit(deps, op, actor.userId, actor.channelId, {}, account).then(async (admitted) => admitted.ok ? (await runOperation(deps, op, args, actor, admitted.account)).reply : admitted.reply);
    return { kind: 'work', what: op.command, reply };
}
//# sourceMappingURL=run-button.js.map