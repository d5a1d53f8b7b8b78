/**
 * What a person is told when a request reached the bot while it could not serve it — before it
 * was ready (Slack had not answered `auth.test` yet) or once it had begun to stop (a deploy's
 * SIGTERM): nothing was done, and the same request will work in a moment (on this replica once
 * started, or on another one).
 */
import { context, section } from './blocks.js';
import { md, trusted, val, type Mrkdwn } from './mrkdwn.js';
import { buildModalMessage, type ModalView } from './modal-views.js';
import type { Reply } from './types.js';

/** Why the request was not taken: the bot is starting, or stopping (said as "restarting"). */
export type Phase = 'starting' | 'stopping';

const STATE: Record<Phase, Mrkdwn> = { starting: trusted('is starting'), stopping: trusted('is restarting') };

/** `what`: the command as typed (`/cloud server status 101`), or undefined for a click or a shortcut (`kind`). */
export function buildStarting(what: string | undefined, phase: Phase = 'starting', kind: 'click' | 'shortcut' = 'click'): Reply {
  const state = STATE[phase];
  const did = what !== undefined ? md`did not take ${val(what)} yet` : kind === 'shortcut' ? md`did not take that shortcut yet` : md`did not take that click yet`;
  return {
    text: md`cloudbot ${state} and ${did}. Nothing was sent; try again in a moment.`,
    blocks: [
      section(md`:hourglass_flowing_sand: cloudbot ${state} and ${did}. *Nothing was sent.*`),
      context(md`Try again in a moment.`),
    ],
  };
}

/** The `response_action: errors` text on a form submitted too early or too late (plain text: Slack shows it as is). */
export function startingFieldError(phase: Phase = 'starting'): string {
  return `cloudbot ${STATE[phase]} and did not take this form yet. Nothing was sent: submit again in a moment.`;
}

/** Pushed over a form with no field to carry the error: the form stays underneath, as filled in. */
export function buildStartingModal(phase: Phase = 'starting'): ModalView {
  return buildModalMessage('cloudbot', md`:hourglass_flowing_sand: cloudbot ${STATE[phase]} and did not take this yet. *Nothing was sent.* Close this and submit again in a moment.`);
}
