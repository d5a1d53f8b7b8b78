/**
 * Confirm, Cancel, Retry sync and Undo (issue 25's undo window) on a change's status message, from any surface. The change
 * flow decides, atomically, whether it acts (a double click, a click on another replica, an
 * expired request all end in one outcome); what the clicker is told comes back as data. A
 * destructive change may first ask for its hostname typed: the surface opens that form
 * (on Slack, views.open with the click's trigger_id) and submits it to `confirmTyped`.
 */
import type { ChangeFlow, ClickOutcome } from '../confirm/change-types.js';
import type { Mrkdwn } from '../views/mrkdwn.js';
import { buildNote } from '../views/click-views.js';
import type { Reply } from '../views/types.js';

export type ChangeButton = 'confirm' | 'cancel' | 'retry-sync' | 'undo';

/** Which button, on which request (the button's value is the record's id), by whom. */
export interface ChangeClick {
  button: ChangeButton;
  recordId: string;
  userId: string;
}

export type ChangeClickAnswer =
  /** The status message (edited by the flow) says it all. */
  | { kind: 'done' }
  /** Tell the clicker privately. */
  | { kind: 'tell'; reply: Reply }
  /** Ask the clicker to type `expected` (what the change acts on, `what`) before confirming. */
  | { kind: 'type-to-confirm'; recordId: string; what: Mrkdwn; expected: string };

export async function handleChangeClick(deps: { flow: ChangeFlow }, click: ChangeClick): Promise<ChangeClickAnswer> {
  const { recordId, userId } = click;
  const act: Record<ChangeButton, () => Promise<ClickOutcome>> = {
    confirm: () => deps.flow.confirm(recordId, userId),
    cancel: () => deps.flow.cancel(recordId, userId),
    'retry-sync': () => deps.flow.retrySync(recordId, userId),
    undo: () => deps.flow.undo(recordId, userId),
  };
  const outcome = await act[click.button]();
  if (outcome.kind === 'type-to-confirm') return { kind: 'type-to-confirm', recordId, what: outcome.what, expected: outcome.expected };
  const reply = clickReply(outcome);
  return reply ? { kind: 'tell', reply } : { kind: 'done' };
}

/** What a click's outcome tells the clicker privately, if anything. */
export function clickReply(outcome: ClickOutcome): Reply | undefined {
  if (outcome.kind === 'tell') return buildNote(outcome.text);
  if (outcome.kind === 'show') return outcome.reply;
  return undefined;
}
