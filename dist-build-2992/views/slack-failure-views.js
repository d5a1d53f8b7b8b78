/**
 * What a person is told when Slack itself failed a call the bot made for them: the status
 * message of a change could not be posted, a form could not be opened, an edit did not land.
 * `code` is Slack's error code (`invalid_blocks`, `expired_trigger_id`) or the bot's name for
 * a failure without one (`http_500`, `timeout`, `request_failed`, `ratelimited`).
 */
import { context, section } from './blocks.js';
import { md, val } from './mrkdwn.js';
/** What Slack did, in words: refused with a code, answered an HTTP error, or did not answer. */
export function slackDid(code, unavailable) {
    if (!unavailable)
        return md `Slack did not accept it (${val(code)})`;
    if (code === 'timeout')
        return md `Slack did not answer in time`;
    if (code === 'ratelimited')
        return md `Slack kept asking me to slow down (${val(code)})`;
    if (code.startsWith('http_'))
        return md `Slack answered with a server error (${val(code)})`;
    return md `Slack could not be reached (${val(code)})`;
}
/** A change whose status message could not be posted: nothing reached the cloud. */
export function buildStatusNotPosted(code, unavailable) {
    const did = slackDid(code, unavailable);
    return {
        text: md `I could not post the status message, so nothing was sent to the cloud.`,
        blocks: [
            section(md `:no_entry: I could not post this change's status message in the channel: ${did}. Changes are announced in the channel so the team can see them, so *nothing was sent to the cloud*.`),
            context(unavailable ? md `Try again in a minute; if it keeps happening, Slack may be having trouble.` : md `If it keeps happening, an admin can find the details in the log.`),
        ],
    };
}
/** A change's outcome, privately, because editing its status message in the channel failed. */
export function buildOutcomeNotShown(status, code, unavailable) {
    return {
        text: md `I could not update the status message in the channel, so here is the outcome: ${status.text}`,
        blocks: [context(md `:warning: I could not update the status message in the channel: ${slackDid(code, unavailable)}. Here is the outcome.`), ...status.blocks],
    };
}
/** views.open failed: the form never appeared. */
export function buildFormNotOpened(code, unavailable) {
    const why = code === 'expired_trigger_id'
        ? md `Slack no longer accepted the command's trigger (${val(code)}): a form must open within 3 seconds, and that passed.`
        : md `${slackDid(code, unavailable)}.`;
    return {
        text: md `I could not open the form, so nothing was done.`,
        blocks: [section(md `:warning: I could not open the form. ${why} Nothing was done; run the command again.`)],
    };
}
/** views.update failed: the form opened but still shows "loading". */
export function buildFormNotFilled(code, unavailable) {
    return {
        text: md `I could not fill in the form, so nothing was done.`,
        blocks: [section(md `:warning: The form opened, but I could not fill it in: ${slackDid(code, unavailable)}. Close it and run the command again; nothing was done.`)],
    };
}
/** Any other Slack failure while answering: what failed, and a log reference. */
export function buildSlackCallFailed(method, code, unavailable, ref) {
    return {
        text: md `Slack failed a call I made for you (${val(method)}).`,
        blocks: [
            section(md `:warning: I could not finish this: ${slackDid(code, unavailable)} when I called ${val(method)}.`),
            context(md `An admin can find it in the log under reference ${val(ref)}.`),
        ],
    };
}
//# sourceMappingURL=slack-failure-views.js.map