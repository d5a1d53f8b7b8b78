/**
 * What a workflow step tells Workflow Builder when it fails (functions.completeError's `error`,
 * issue 23): one human sentence. It is built as mrkdwn like every other message, so outside
 * text (names, the cloud's words) is an inert value whatever Slack does with it, then kept to
 * one line of bounded length.
 */
import { CloudApiError } from '../cloud/errors.js';
import type { OperationRecord } from '../store/types.js';
import { whyNotSent } from './change-notices.js';
import { describeCloudError } from './cloud-error-text.js';
import { inputMessage } from './input-message.js';
import { utcMinute } from './format.js';
import { cutMrkdwn, join, md, mention, oneLine, trusted, val, type Mrkdwn } from './mrkdwn.js';
import type { WatchUnread } from '../store/watch-store.js';
import { unreadWhy } from './watch-views.js';
import type { Reply } from './types.js';

/** Slack shows the error in the workflow's activity; long ones are cut. */
export const STEP_ERROR_MAX = 500;

export const stepError = (m: Mrkdwn): string => oneLine(cutMrkdwn(m, STEP_ERROR_MAX), STEP_ERROR_MAX);

/** A reply made for a person (a refusal, a cloud error) as the step's error: its fallback text. */
export const stepErrorOf = (reply: Reply): string => stepError(reply.text as Mrkdwn);

export const stepNeedsWhere = (): string =>
  stepError(md`This step needs a channel and the person it runs for (inputs ${val('channel')} and ${val('requester')}); nothing was sent.`);

/** `message` is the operation's own: "must be …", or a sentence of its own (a colon before it, its full stop dropped). */
export const stepBadInput = (input: string, message: string): string => {
  const said = message.trim().replace(/\.$/, '');
  return stepError(md`Input ${val(input)}${/^[A-Z]/.test(said) ? md`:` : md``} ${inputMessage(said)}; nothing was sent.`);
};

export const stepUnknown = (callbackId: string): string => stepError(md`This version of the bot does not offer the step ${val(callbackId)}; nothing was sent.`);

export const stepNotRecorded = (): string => stepError(md`The bot could not record this step, so it did not start it; nothing was sent.`);

/**
 * A change that closed unsent: cancelled in the channel by someone, or not sent for a reason the
 * bot saw (Undo, its undo window's recheck), in the words its click answer uses.
 */
export const stepCancelled = (record: OperationRecord): string => {
  const by = record.result?.cancelledBy;
  const cancelledBySomeone = !record.errorCode && record.result?.undoneBy === undefined;
  if (cancelledBySomeone) return stepError(md`Cancelled in the channel${typeof by === 'string' ? md` by ${mention(by)}` : md``}; nothing was sent.`);
  return stepError(whyNotSent(record, mention));
};

/** A backup step's backup is gone from the cloud's list before it finished (the uuid is the cloud's text). */
export const stepBackupGone = (uuid: string, server: string): string =>
  stepError(md`Backup ${val(uuid)} is no longer listed for server ${val(server)}; it did not finish.`);

/** The cloud lists the step's backup as completed but not successful. */
export const stepBackupFailed = (uuid: string, server: string): string =>
  stepError(md`Backup ${val(uuid)} of server ${val(server)} failed: the cloud lists it as completed but not successful.`);

export const stepExpired = (): string => stepError(md`Nobody confirmed in time, so the request expired; nothing was sent.`);

/** In the words of the change's audit entry (confirm/undo-window.ts). */
export const stepSendTimePassed = (): string =>
  stepError(md`The change was confirmed, but its undo window ended while no bot was running, so it expired unsent; nothing was sent.`);

export const stepNotPosted = (): string =>
  stepError(md`The bot could not post the confirmation in the step’s channel (is it invited there?); nothing was sent.`);

/**
 * A change that failed, in the words its status message uses (views/cloud-error-text.ts): a
 * refusal is a refusal, but a timeout, a lost connection or a 5xx may have reached the cloud,
 * a sync failure saved the rule, and INTERNAL was the bot.
 */
export const stepCloudFailed = (failure: CloudApiError, saved = false): string => {
  // `saved`: a firewall change whose sync did not go through (status-message.ts syncPending).
  const t = describeCloudError(failure, { mutation: true, saved });
  return stepError(md`${t.summary} ${t.nextStep}`);
};

export const stepOutcomeUnknown = (): string =>
  stepError(md`The bot stopped while the change was being sent, so whether it happened is unknown; check before running the step again.`);

export const stepWatchEnded = (what: Mrkdwn, state: string | undefined, why: 'failed' | 'expired' | 'gone' | 'cancelled'): string => {
  const tail: Record<typeof why, Mrkdwn> = {
    failed: md`did not come up${state ? md`: ${val(state)}` : md``}`,
    expired: md`was not finished when the bot stopped watching${state ? md` (last seen ${val(state)})` : md``}`,
    gone: md`is gone`,
    cancelled: md`is no longer watched (someone stopped the watch), so the step cannot say it finished`,
  };
  return stepError(md`${what} ${tail[why]}.`);
};

/**
 * A watch that reached its deadline while its polls failed: whether the work finished is not
 * known, so the step says what the bot last saw, since when it could not read, and why.
 */
export const stepWatchUnread = (what: Mrkdwn, state: string | undefined, unread: WatchUnread): string => {
  const at = trusted(utcMinute(unread.since));
  return stepError(md`${what}: the bot could not read its state since ${at}${state ? md` (last seen ${val(state)})` : md``}, so whether it finished is unknown: ${unreadWhy(unread)}`);
};

/** Past the bound with no change on record (a replica stopped before starting it): there is no change to check. */
export const stepGaveUp = (): string => stepError(md`The bot stopped before it started this step, and too long has passed to start it now; nothing was sent.`);

/** Given up while nobody had confirmed: the bot closed the request first (its card says so), so nothing can be sent. */
export const stepGaveUpClosed = (): string =>
  stepError(md`Nobody confirmed the change before the bot stopped waiting for this step, so the bot closed the request; nothing was sent.`);

/** Given up once the change was confirmed (a click may land as the bot gives up): it may well be sent. */
export const stepGaveUpUnderway = (): string =>
  stepError(md`The change was confirmed, but the bot stopped waiting for its outcome after too long; it may still be under way — check the change in the channel.`);

/** Given up on the work a change started (a build, a backup) after the change itself was made. */
export const stepGaveUpUnfinished = (): string =>
  stepError(md`The change was made, but the bot stopped waiting for the work it started to finish; check the change in the channel.`);

/** Succeeded without an output the manifest requires (a rule whose sync was retried: the cloud never gave its id). */
export const stepOutputsUnknown = (names: readonly string[]): string =>
  stepError(md`The change was made, but the bot never learned its ${join(names.map((n) => val(n)), ', ')}, which this step outputs; see the change in the channel.`);

/** Slack refused the outputs of a step whose work was done (Slack's code is its own word). */
export const stepOutputsRefused = (code: string): string =>
  stepError(md`The step’s work was done, but Slack refused its outputs (${val(code)}), so the step could not pass them on.`);
