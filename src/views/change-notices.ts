/** Short answers around a change: the bot is not in the channel; a click that came too late. */
import type { OperationRecord } from '../store/types.js';
import type { Reply } from './types.js';
import { context, section } from './blocks.js';
import { md, mention, val, type Mrkdwn } from './mrkdwn.js';
import { describeCloudError, isRefusal } from './cloud-error-text.js';
import { recordFailure } from './record-failure.js';
import { syncPending } from './status-message.js';
import { APPROVAL_NOW_REQUIRED, RIGHTS_UNCHECKED, RUN_TAKEN_OVER, STEP_GAVE_UP, STOPPED_BEFORE_SEND, uncheckedFor, withdrawnFrom, type SuccessLook } from './status-views.js';

export function buildNotInChannel(slackCode: string): Reply {
  const why =
    slackCode === 'channel_not_found'
      ? md`I cannot see this conversation (a private channel or a direct message I am not part of).`
      : slackCode === 'is_archived'
        ? md`This channel is archived.`
        : md`I am not a member of this channel.`;
  return {
    text: md`I cannot post in this channel, so nothing was done.`,
    blocks: [
      section(
        md`:no_entry: ${why} Changes are announced in the channel so the team can see them, so *nothing was sent to the cloud*.\nInvite me with ${val('/invite @cloudbot')} (or run the command in a channel I am in), then try again.`,
      ),
      context(md`Slack said ${val(slackCode)}.`),
    ],
  };
}

/** What a click is told when it did not act: who already did, or why it is too late. */
export function buildClickAnswer(record: OperationRecord | undefined, userId: string, reason: string, succeededAs?: SuccessLook, now = 0): Mrkdwn {
  if (!record || reason === 'not_found') return md`This request is no longer known to the bot.`;
  const who = (id: string | null) => (id === userId ? md`you` : mention(id));
  switch (record.status) {
    case 'pending':
      return reason === 'expired' ? md`This request has expired; nothing was done. Run the command again.` : md`This request is still waiting.`;
    case 'confirmed':
      if (uncheckedFor(record)) return md`Already confirmed by ${who(record.confirmedBy)}; nothing has been sent yet: its undo delay ended, and the bot waits until Slack lets it check that the right to make it still holds.`;
      if (typeof record.sendAt === 'number') return md`Already confirmed by ${who(record.confirmedBy)}; nothing has been sent yet, and it is sent when the undo delay ends unless someone presses Undo.`;
      return md`Already confirmed by ${who(record.confirmedBy)}; it is running.`;
    case 'running':
      return md`Already confirmed by ${who(record.confirmedBy)}; it is running.`;
    case 'succeeded':
      if (succeededAs) return md`Already confirmed by ${who(record.confirmedBy)}: ${succeededAs.state}.`;
      return md`Already done: confirmed by ${who(record.confirmedBy)}.`;
    case 'failed': {
      // Saved but not synced, or no clear answer (no reply, a 5xx, the bot stopped): running the
      // command again could make the change twice, so the clicker hears what its message says.
      const failure = recordFailure(record, now);
      const saved = syncPending(record);
      if (failure && (saved || !isRefusal(failure))) {
        const t = describeCloudError(failure, { mutation: true, saved });
        return md`Already tried after ${who(record.confirmedBy)} confirmed it: ${t.summary} ${t.nextStep}`;
      }
      return md`Already tried after ${who(record.confirmedBy)} confirmed it; it failed. Run the command again to retry.`;
    }
    case 'cancelled':
      return whyNotSent(record, who);
    case 'expired':
      return md`This request has expired; nothing was done. Run the command again.`;
  }
}

/**
 * Why a cancelled change was not sent, in one sentence: taken back with Undo, closed by the bot
 * (its undo window's recheck, a workflow that stopped waiting, a stopped scheduled run), or
 * cancelled by someone. The click answer and a workflow step's error both say it
 * (views/step-views.ts), so neither claims "cancelled by someone" for a change nobody cancelled.
 */
export function whyNotSent(record: OperationRecord, who: (id: string | null) => Mrkdwn): Mrkdwn {
  if (typeof record.result?.undoneBy === 'string') return md`Taken back by ${who(record.result.undoneBy)}; nothing was sent.`;
  if (record.errorCode === STEP_GAVE_UP) return md`The workflow that asked for this stopped waiting, so the request was closed; nothing was sent.`;
  if (withdrawnFrom(record) !== undefined) return md`Not sent: ${who(withdrawnFrom(record)!)} may no longer make this change here (the rules changed during its undo window).`;
  if (record.errorCode === RIGHTS_UNCHECKED) return md`Not sent: Slack could not tell the bot in time whether the right to make this change here still held.`;
  if (record.errorCode === APPROVAL_NOW_REQUIRED) return md`Not sent: the channel’s rules now want a second admin’s approval, which this change never had.`;
  if (record.errorCode === RUN_TAKEN_OVER) return md`The bot running this scheduled change stopped before sending it, so the request was closed; nothing was sent.`;
  if (record.errorCode === STOPPED_BEFORE_SEND) return md`The bot stopped after the Confirm and before sending this, so the request was closed; nothing was sent. Run the command again if it is still wanted.`;
  return md`Cancelled by ${who(typeof record.result?.cancelledBy === 'string' ? record.result.cancelledBy : null)}; nothing was done.`;
}
