/**
 * A change typed as a command: open its form when inputs are missing (or none were given and
 * the form is the natural way in), otherwise hand it to the change flow. The form opens at
 * once with a loading view, because a trigger_id lives 3 s and the choices come from the cloud.
 */
import { isCloudApiError } from '../cloud/errors.js';
import { describeCloudError } from '../views/cloud-error-text.js';
import { SlackApiError } from '../chat/slack-api.js';
import { buildFormNotFilled, buildFormNotOpened } from '../views/slack-failure-views.js';
import { buildChangeModal, buildChoicesUnreadable, buildLoadingModal } from '../views/modal-views.js';
import { buildFieldErrors, FORM_VALUES_TOO_LONG } from '../views/click-views.js';
/** Whether the missing arguments are all asked by the form (else the usage is the answer). */
export function formCovers(op, names) {
    const fields = new Set(op.change?.modal?.fields.map((f) => f.name) ?? []);
    return names.every((n) => fields.has(n));
}
export async function openChangeForm(deps, op, given, inv, notes) {
    const spec = op.change.modal;
    const metadata = JSON.stringify({ op: op.id, channel: inv.channelId, given, account: inv.account, ...(notes ? { notes } : {}) });
    if (metadata.length > 3000)
        return FORM_VALUES_TOO_LONG;
    // Slack failing views.open (expired_trigger_id, a 5xx, no answer) is told through the
    // response_url: the caller sends the Reply returned here.
    let opened;
    try {
        opened = await deps.slack.openView(inv.triggerId, buildLoadingModal(spec.title, metadata));
    }
    catch (e) {
        if (!(e instanceof SlackApiError))
            throw e;
        deps.logger.warn('could not open a form', { op: op.id, error: e });
        return buildFormNotOpened(e.code, e.failure === 'unavailable');
    }
    try {
        await fillChangeForm(deps, op, given, opened, metadata, notes, inv.account);
    }
    catch (e) {
        if (!(e instanceof SlackApiError))
            throw e;
        deps.logger.warn('could not fill in a form', { op: op.id, error: e });
        return buildFormNotFilled(e.code, e.failure === 'unavailable');
    }
    return undefined;
}
async function fillChangeForm(deps, op, given, opened, metadata, notes, account) {
    const spec = op.change.modal;
    const options = {};
    try {
        // The choices of every field at once: a form waits for one cloud round trip, not one per field.
        const ctx = { cloud: deps.accounts.client(account), clock: deps.clock };
        const loads = spec.fields.flatMap((f) => (typeof f.options === 'function' ? [f.options(ctx).then((o) => [f.name, o])] : []));
        for (const [name, o] of await Promise.all(loads))
            options[name] = o;
    }
    catch (e) {
        if (!isCloudApiError(e))
            throw e;
        const t = describeCloudError(e);
        await deps.slack.updateView(opened.id, buildChoicesUnreadable(spec.title, t.summary, t.nextStep));
        return;
    }
    const initial = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : typeof v === 'boolean' ? v : String(v)]));
    const described = op.change.describe(given, {});
    const view = buildChangeModal({ spec, options, initial, intro: described.title, privateMetadata: metadata, ...(notes ? { fieldNotes: notes } : {}) });
    await deps.slack.updateView(opened.id, view, opened.hash);
}
/** Everything a StartOutcome means for the person who typed the command. */
export function outcomeReply(outcome) {
    switch (outcome.kind) {
        case 'tell':
            return outcome.reply;
        case 'invalid':
            return buildFieldErrors(outcome.fieldErrors, 'cloud');
        case 'posted':
            return outcome.unseen; // else the status message in the channel says it all
        case 'duplicate':
            return undefined;
    }
}
/** A typed change, started: what the person who typed it is told (nothing when its status message says it all). */
export async function runChangeCommand(deps, op, args, inv) {
    const checked = op.change.check?.(args);
    if (checked && !checked.ok)
        return buildFieldErrors(checked.fieldErrors, 'check');
    const finalArgs = checked?.ok ? checked.args : args;
    const outcome = await deps.flow.start({
        op,
        args: finalArgs,
        userId: inv.userId,
        channelId: inv.channelId,
        account: inv.account,
        ...(inv.teamId ? { teamId: inv.teamId } : {}),
        dedupeKey: `cmd:${inv.triggerId}`,
        dryRun: inv.dryRun,
    });
    return outcomeReply(outcome);
}
//# sourceMappingURL=change-commands.js.map