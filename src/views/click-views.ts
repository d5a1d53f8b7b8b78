/**
 * What a click, a form or a typed change is told privately when it did not simply act: who
 * may do it, a typed hostname that does not match, a retry's result, a refusal before asking.
 * Everything from the cloud or from a person is a value (`val`), people are mentions.
 */
import type { ErrorText } from './cloud-error-text.js';
import { section } from './blocks.js';
import { join, md, mention, val, type Mrkdwn } from './mrkdwn.js';
import type { Reply } from './types.js';
import { inputMessage } from './input-message.js';
import { groupsUnread } from './access-views.js';

/** A short private answer: the text and one section saying the same. */
export function buildNote(text: Mrkdwn): Reply {
  return { text, blocks: [section(text)] };
}

/** A change's result as a plain reply (the shell and tests read it; Slack shows the status message). */
export function buildChangeResult(summary: Mrkdwn | undefined): Reply {
  return buildNote(summary ?? md`Done.`);
}

export const UNKNOWN_REQUEST = md`This request is no longer known to the bot.`;
export const OWN_REQUEST_NEEDS_APPROVAL = md`You asked for this, so another admin must approve it (two-person approval). Nothing was done.`;
/**
 * A workflow step's `requester` is whatever its workflow names, so one admin could name another
 * and then approve "someone else's" request alone: two-person approval cannot rest on it.
 */
export const STEP_APPROVAL_UNVERIFIED = md`This change comes from a workflow step, whose requester is whatever the workflow names, so a second admin’s approval cannot be told apart from the first person; nothing was sent. Ask for it with ${val('/cloud')} instead.`;
/** Two-person approval is a second *admin's* (README, CLOUD_APPROVAL and the policy's `approval`). */
export const ONLY_ADMINS_APPROVE = md`Only an admin can approve this (two-person approval needs a second admin). Nothing was done; the request still waits.`;
/** An approver whose admin role may come from a user group the bot could not read just now. */
export const approverUnread = (groups: readonly string[]): Mrkdwn =>
  md`Only an admin can approve this (two-person approval needs a second admin). ${groupsUnread(groups)}, which may make you one, so it cannot tell. Nothing was done; the request still waits — try again in a moment.`;
export const NOTHING_TO_SYNC = md`There is nothing to sync for this request.`;
export const RETRY_RUNNING = md`A retry is already running.`;
export const RETRY_TAKEN = md`Someone else is retrying this already.`;
export const UNDO_TOO_LATE = md`Too late to take it back: the undo delay ended and the request was sent. The status message shows how it went.`;

export function onlyRequesterMay(requestedBy: string, action: 'confirm' | 'approve' | 'cancel' | 'retry' | 'undo'): Mrkdwn {
  const verb = action === 'confirm' ? md`confirm` : action === 'approve' ? md`approve` : action === 'cancel' ? md`cancel` : action === 'undo' ? md`take back` : md`retry`;
  return md`Only ${mention(requestedBy)} can ${verb} this request.`;
}

export function typedMismatch(expected: string): Mrkdwn {
  return md`That is not ${val(expected)}. Nothing was done; the request still waits.`;
}

/** Stored as the record's summary (re-read by the status view), so built here like any summary. */
export function syncedSummary(userId: string): Mrkdwn {
  return md`Saved, and synced to every node after a retry by ${mention(userId)}.`;
}

export function syncedAnswer(group: string | number): Mrkdwn {
  return md`:white_check_mark: Security group ${typeof group === 'number' ? group : val(group)} is synced to every node now.`;
}

/** `refused`: the deploy definitely did not sync (a refusal, or the sync failed again); otherwise it gave no answer (or a 5xx), and the sync may have gone through. */
export function syncFailedAgain(t: ErrorText, refused: boolean): Mrkdwn {
  return refused ? md`The sync failed again: ${t.summary} ${t.nextStep}` : md`The sync’s outcome is unknown: ${t.summary} ${t.nextStep}`;
}

/** A precheck said no before anything was posted or sent. `command` is `/cloud server reinstall`. */
export function buildCloudRefusal(command: string, reason: Mrkdwn): Reply {
  return {
    text: reason,
    blocks: [section(md`:no_entry: *${val(command)} was not sent.* ${reason}`)],
  };
}

/** Inputs refused (by the entry's own check or by the cloud), one line per field. */
export function buildFieldErrors(fieldErrors: Record<string, string>, by: 'check' | 'cloud'): Reply {
  // Our own checks quote the input “like this”; the cloud's messages are outside text whole.
  const lines = Object.entries(fieldErrors).map(([f, m]) => md`• ${val(f)}: ${by === 'check' ? inputMessage(m) : val(m)}`);
  const intro = by === 'cloud' ? md`:warning: The cloud rejected the input:` : md`:grey_question: Some inputs are not valid, so nothing was sent:`;
  return {
    text: by === 'cloud' ? md`The cloud rejected the input.` : md`Some inputs are not valid, so nothing was sent.`,
    blocks: [section(join([intro, ...lines], '\n'))],
  };
}

export const FORM_VALUES_TOO_LONG = buildNote(md`The values given are too long for a form; give them as flags instead.`);
