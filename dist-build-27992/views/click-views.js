import { section } from './blocks.js';
import { join, md, mention, val } from './mrkdwn.js';
import { inputMessage } from './input-message.js';
/** A short private answer: the text and one section saying the same. */
export function buildNote(text) {
    return { text, blocks: [section(text)] };
}
/** A change's result as a plain reply (the shell and tests read it; Slack shows the status message). */
export function buildChangeResult(summary) {
    return buildNote(summary ?? md `Done.`);
}
export const UNKNOWN_REQUEST = md `This request is no longer known to the bot.`;
export const OWN_REQUEST_NEEDS_APPROVAL = md `You asked for this, so another admin must approve it (two-person approval). Nothing was done.`;
export const NOTHING_TO_SYNC = md `There is nothing to sync for this request.`;
export const RETRY_RUNNING = md `A retry is already running.`;
export const RETRY_TAKEN = md `Someone else is retrying this already.`;
export function onlyRequesterMay(requestedBy, action) {
    const verb = action === 'confirm' ? md `confirm` : action === 'cancel' ? md `cancel` : md `retry`;
    return md `Only ${mention(requestedBy)} can ${verb} this request.`;
}
export function typedMismatch(expected) {
    return md `That is not ${val(expected)}. Nothing was done; the request still waits.`;
}
/** Stored as the record's summary (re-read by the status view), so built here like any summary. */
export function syncedSummary(userId) {
    return md `Saved, and synced to every node after a retry by ${mention(userId)}.`;
}
export function syncedAnswer(group) {
    return md `:white_check_mark: Security group ${typeof group === 'number' ? group : val(group)} is synced to every node now.`;
}
export function syncFailedAgain(t) {
    return md `The sync failed again: ${t.summary} ${t.nextStep}`;
}
/** A precheck said no before anything was posted or sent. `command` is `/cloud server reinstall`. */
export function buildCloudRefusal(command, reason) {
    return {
        text: reason,
        blocks: [section(md `:no_entry: *${val(command)} was not sent.* ${reason}`)],
    };
}
/** Inputs refused (by the entry's own check or by the cloud), one line per field. */
export function buildFieldErrors(fieldErrors, by) {
    // Our own checks quote the input “like this”; the cloud's messages are outside text whole.
    const lines = Object.entries(fieldErrors).map(([f, m]) => md `• ${val(f)}: ${by === 'check' ? inputMessage(m) : val(m)}`);
    const intro = by === 'cloud' ? md `:warning: The cloud rejected the input:` : md `:grey_question: Some inputs are not valid, so nothing was sent:`;
    return {
        text: by === 'cloud' ? md `The cloud rejected the input.` : md `Some inputs are not valid, so nothing was sent.`,
        blocks: [section(join([intro, ...lines], '\n'))],
    };
}
export const FORM_VALUES_TOO_LONG = buildNote(md `The values given are too long for a form; give them as flags instead.`);
//# sourceMappingURL=click-views.js.map