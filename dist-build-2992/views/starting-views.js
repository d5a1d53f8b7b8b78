/**
 * What a person is told when a request reached the bot before it was ready to serve it (Slack
 * had not answered `auth.test` yet) and the ack could not wait any longer: nothing was done,
 * and the same request will work in a moment.
 */
import { context, section } from './blocks.js';
import { md, val } from './mrkdwn.js';
import { buildModalMessage } from './modal-views.js';
/** `what`: the command as typed (`/cloud server status 101`), or undefined for a click. */
export function buildStarting(what) {
    const did = what === undefined ? md `did not take that click yet` : md `did not take ${val(what)} yet`;
    return {
        text: md `cloudbot is starting and ${did}. Nothing was sent; try again in a moment.`,
        blocks: [
            section(md `:hourglass_flowing_sand: cloudbot is starting and ${did}. *Nothing was sent.*`),
            context(md `Try again in a moment.`),
        ],
    };
}
/** The `response_action: errors` text on a form submitted too early (plain text: Slack shows it as is). */
export const STARTING_FIELD_ERROR = 'cloudbot is starting and did not take this form yet. Nothing was sent: submit again in a moment.';
/** Pushed over a form with no field to carry the error: the form stays underneath, as filled in. */
export function buildStartingModal() {
    return buildModalMessage('cloudbot', md `:hourglass_flowing_sand: cloudbot is starting and did not take this yet. *Nothing was sent.* Close this and submit again in a moment.`);
}
//# sourceMappingURL=starting-views.js.map