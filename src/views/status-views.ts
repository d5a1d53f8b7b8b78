/**
 * The one status message each change gets in the channel, rendered from its record alone, so
 * any part of the bot (a click, the expiry sweep, a restart) can edit it in place. Buttons show
 * only while a click can still do something.
 */
import type { ErrorText } from './cloud-error-text.js';
import type { CloudRequest } from '../domain/cloud-request.js';
import type { OperationRecord } from '../store/types.js';
import type { Block, Reply } from './types.js';
import { actions, button, context, fields, section } from './blocks.js';
import { codeBlock, join, md, mention, trusted, val, type Mrkdwn } from './mrkdwn.js';
import { elapsed, moment } from './format.js';
import { accountValue } from './account-label.js';
import { words } from './words.js';
import { groupsUnread } from './access-views.js';

export const ACTION_CONFIRM = 'op_confirm';
export const ACTION_CANCEL = 'op_cancel';
export const ACTION_RETRY_SYNC = 'op_retry_sync';
export const ACTION_UNDO = 'op_undo';

/**
 * The error code of a pending change the bot closed because the workflow step that asked for it
 * stopped waiting (app/run-step.ts): its card and a late click say so, not "cancelled by someone".
 */
export const STEP_GAVE_UP = 'STEP_GAVE_UP';
/**
 * The error code of a scheduled change's pending record the bot closed because the replica
 * running it stopped before sending it and another took the run over (app/schedule-run.ts).
 */
export const RUN_TAKEN_OVER = 'RUN_TAKEN_OVER';
/**
 * The error code of a change the bot closed after a restart because it was confirmed but never
 * sent: the process stopped between the Confirm and the request (confirm/upkeep.ts).
 */
export const STOPPED_BEFORE_SEND = 'STOPPED_BEFORE_SEND';

/**
 * The error codes of a change the undo window did not send when its delay ended (undo-window.ts):
 * its confirmer or approver (`result.withdrawnFrom`) may no longer make it here, or the
 * channel's rules now want an approval it never had.
 */
export const RIGHTS_WITHDRAWN = 'RIGHTS_WITHDRAWN';
export const APPROVAL_NOW_REQUIRED = 'APPROVAL_NOW_REQUIRED';
/**
 * Neither: the recheck could not be made (a user group that gives the right could not be read)
 * until it was too late to send. While it waits, `result.uncheckedFor` names whose right it checks.
 */
export const RIGHTS_UNCHECKED = 'RIGHTS_UNCHECKED';

/** Changes the bot closed itself: what their card says instead of "cancelled by someone". */
const CLOSED_BY_BOT = new Map<string | null, Mrkdwn>([
  [STEP_GAVE_UP, md`closed — the workflow stopped waiting for a Confirm; nothing was sent`],
  [RUN_TAKEN_OVER, md`closed — the bot running this scheduled change stopped before sending it; nothing was sent`],
  [STOPPED_BEFORE_SEND, md`closed — the bot stopped after the Confirm, before sending it; nothing was sent`],
  [RIGHTS_WITHDRAWN, md`not sent — the right to make it here was withdrawn during its undo window; nothing was sent`],
  [APPROVAL_NOW_REQUIRED, md`not sent — the channel’s rules now want a second admin’s approval, which this change never had; nothing was sent`],
  [RIGHTS_UNCHECKED, md`not sent — Slack could not tell the bot in time whether the right to make it here still holds; nothing was sent`],
]);

/** Who a change was not sent for, once the undo window found their right gone. */
export const withdrawnFrom = (r: OperationRecord): string | undefined =>
  r.status === 'cancelled' && r.errorCode === RIGHTS_WITHDRAWN && typeof r.result?.withdrawnFrom === 'string' ? r.result.withdrawnFrom : undefined;

/** Whose right a due change waits to check (Slack did not let the bot read a group), or could not check in time. */
export function uncheckedFor(r: OperationRecord): { who: string; groups: string[] } | undefined {
  const waitingOrClosed = (r.status === 'confirmed' && typeof r.sendAt === 'number') || (r.status === 'cancelled' && r.errorCode === RIGHTS_UNCHECKED);
  const who = r.result?.uncheckedFor;
  if (!waitingOrClosed || typeof who !== 'string') return undefined;
  const groups = Array.isArray(r.result?.unreadGroups) ? r.result.unreadGroups.filter((g): g is string => typeof g === 'string') : [];
  return { who, groups };
}

/**
 * How a change that succeeded is headed when success is not the whole story (a schedule's
 * Confirm that came too late arms nothing): its catalog entry says so from the stored outputs.
 */
export interface SuccessLook {
  icon: Mrkdwn;
  state: Mrkdwn;
}

/** Each status's icon and words on the status message. */
const LOOK: Record<OperationRecord['status'], { icon: Mrkdwn; state: Mrkdwn }> = {
  pending: { icon: md`:warning:`, state: md`awaiting confirmation` },
  confirmed: { icon: md`:hourglass_flowing_sand:`, state: md`confirmed` },
  running: { icon: md`:hourglass_flowing_sand:`, state: md`running` },
  succeeded: { icon: md`:white_check_mark:`, state: md`done` },
  failed: { icon: md`:x:`, state: md`failed` },
  cancelled: { icon: md`:no_entry_sign:`, state: md`cancelled` },
  expired: { icon: md`:alarm_clock:`, state: md`expired — nothing was done` },
};

export interface StatusInput {
  record: OperationRecord;
  /** From the catalog entry's `describe`. */
  title: Mrkdwn;
  lines: Mrkdwn[];
  /** The request as sent (secrets masked); absent for a record made before requests were stored. */
  request?: CloudRequest;
  /** Whether a click is needed before anything is sent. */
  needsConfirm: boolean;
  /** The click must be a second admin's Approve (two-person approval). */
  approval?: boolean;
  /** The confirmer must type this first (shown so nobody is surprised by the dialog). */
  typeToConfirm?: string;
  /** The cloud's error in words, once failed. */
  error?: ErrorText;
  /** Done, but a watch still follows the work it started: the heading's word until it ends. */
  underway?: Mrkdwn;
  /** Succeeded, but not as "done" reads (ChangeSpec.succeededAs): its icon and words instead. */
  succeededAs?: SuccessLook;
  /** A request sent after `request` by a Retry sync (the group's deploy). */
  retried?: CloudRequest;
  /** Offer "Retry sync" (HYPERVISOR_SYNC_FAILED on a security group). */
  retrySync?: boolean;
  /** The account it acts on, when messages name accounts (several declared). */
  account?: string;
  /** Failed, but the bot is handling it (a full backup_limit it makes room for): said instead of "failed". */
  handling?: Mrkdwn;
  now: number;
}

export function requestLine(r: CloudRequest): Mrkdwn {
  return val(`${r.method} ${r.path}`);
}

/** A result detail: numbers as they are, anything else (from the cloud) as a value. */
const detail = (v: unknown): Mrkdwn => (typeof v === 'number' ? md`${v}` : val(String(v)));

export function buildStatusMessage(s: StatusInput): Reply {
  const { record: r } = s;
  // A change that needs no confirmation is "starting" until it runs, never "awaiting confirmation".
  const starting = r.status === 'pending' && !s.needsConfirm;
  const underway = r.status === 'succeeded' && s.underway !== undefined;
  // Confirmed into an undo window: nothing is sent before sendAt, and Undo can still stop it.
  const holding = r.status === 'confirmed' && typeof r.sendAt === 'number';
  // Due, but held until Slack lets the bot check the right to make it (undo-window.ts).
  const unchecked = uncheckedFor(r);
  const undone = r.status === 'cancelled' && typeof r.result?.undoneBy === 'string';
  const handled = r.status === 'failed' && s.handling !== undefined;
  const closedByBot = r.status === 'cancelled' ? CLOSED_BY_BOT.get(r.errorCode) : undefined;
  const notDone = r.status === 'succeeded' ? s.succeededAs : undefined;
  const icon = notDone ? notDone.icon : starting || underway ? md`:hourglass_flowing_sand:` : holding ? md`:stopwatch:` : handled ? md`:information_source:` : LOOK[r.status].icon;
  const state = notDone
    ? notDone.state
    : handled
    ? s.handling!
    : starting
    ? md`starting`
    : holding
      ? s.now < r.sendAt!
        ? md`confirmed; sending in ${words(elapsed(s.now, r.sendAt!))} unless someone presses Undo — nothing has been sent yet`
        : unchecked
          ? md`confirmed; waiting to check the right to make it here, which Slack could not tell the bot — nothing has been sent yet`
          : md`confirmed; sending now`
      : undone
        ? md`taken back — nothing was sent`
        : closedByBot
        ? closedByBot
        : underway
      ? s.underway!
      : r.status === 'pending' && s.approval
        ? md`awaiting approval by a second admin`
        : LOOK[r.status].state;
  const blocks: Block[] = [section(md`${icon} *${s.title}* — ${state}`)];
  if ((r.status === 'pending' && !starting) || r.status === 'expired' || r.status === 'cancelled' || holding) {
    if (s.lines.length) blocks.push(section(join(s.lines.map((l) => md`• ${l}`), '\n')));
  }
  if (r.status === 'succeeded' && r.result) {
    // The summary was made by a view when the change succeeded, and stored with the record.
    const summary = typeof r.result.text === 'string' ? trusted(r.result.text) : undefined;
    if (summary) blocks.push(section(summary));
    const details = r.result.details as Record<string, unknown> | undefined;
    if (details && Object.keys(details).length) blocks.push(fields(Object.entries(details).map(([k, v]) => [words(k), detail(v)])));
  }
  if (r.status === 'failed') {
    const e = s.error;
    // The stored error message is the cloud's (or the bot's) raw text.
    // Handled: the cloud's reason stays, its next step is what the bot is doing.
    blocks.push(section(e ? (handled ? md`${e.summary} (code ${val(e.code)})` : md`${e.summary}\n_${e.nextStep}_ (code ${val(e.code)})`) : val(r.errorMessage)));
    if (e?.fields) blocks.push(section(join(Object.entries(e.fields).map(([f, m]) => md`• ${val(f)}: ${join(m.map((x) => val(x)), '; ')}`), '\n')));
  }

  // A schedule's run (issue 25): sent with the Confirm given when it was scheduled.
  const scheduled = r.facts?.scheduled as { id?: unknown } | undefined;
  const who = [typeof scheduled?.id === 'string' ? md`Scheduled by ${mention(r.requestedBy)} (${val(scheduled.id)})` : md`Requested by ${mention(r.requestedBy)}`];
  if (r.approvedBy) who.push(md`approved by ${mention(r.approvedBy)}`);
  else if (r.confirmedBy && s.needsConfirm) who.push(md`confirmed by ${mention(r.confirmedBy)}`);
  if (undone) who.push(md`taken back by ${mention(r.result!.undoneBy as string)}`);
  else if (r.status === 'cancelled' && !closedByBot) who.push(md`cancelled by ${mention(typeof r.result?.cancelledBy === 'string' ? r.result.cancelledBy : null)}`);
  if (r.status === 'pending' && !starting) who.push(md`expires ${moment(r.expiresAt)}`);
  if (r.finishedAt && (r.status === 'succeeded' || r.status === 'failed')) {
    who.push(md`took ${words(elapsed(r.confirmedAt ?? r.createdAt, r.finishedAt))}`);
  }
  if (s.request && holding) who.push(md`will send ${requestLine(s.request)}`);
  else if (s.request && r.status !== 'pending' && r.status !== 'cancelled' && r.status !== 'expired') who.push(md`sent ${requestLine(s.request)}${s.retried ? md` then ${requestLine(s.retried)}` : md``}`);
  // In every state: a change on the wrong account must be told apart at a glance.
  if (s.account !== undefined) who.push(md`account ${accountValue(s.account)}`);
  blocks.push(context(join(who, ' · ')));
  if (r.status === 'cancelled' && (r.errorCode === RIGHTS_WITHDRAWN || r.errorCode === APPROVAL_NOW_REQUIRED)) {
    // Named here, not in the heading: the notification text mentions nobody.
    const lost = withdrawnFrom(r);
    const whose = lost !== undefined ? md`${mention(lost)} may no longer make this change here. ` : md``;
    blocks.push(context(md`${whose}Checked again when its undo delay ended, under the rules in force then (${val('/cloud policy')} shows them). Ask again if it should still be done.`));
  }
  if (unchecked) {
    // Named here, not in the heading: the notification text mentions nobody.
    const read = md`${groupsUnread(unchecked.groups)} to check that ${mention(unchecked.who)} may still make this change here`;
    blocks.push(context(r.status === 'cancelled' ? md`${read}. Ask again if it should still be done.` : md`${read}; it tries again shortly, and Undo still takes it back.`));
  }

  if (r.status === 'pending' && s.needsConfirm) {
    if (s.approval) blocks.push(context(md`Needs a second admin: ${mention(r.requestedBy)} cannot approve their own request.`));
    if (s.typeToConfirm) blocks.push(context(md`Confirming asks you to type ${val(s.typeToConfirm)}.`));
    blocks.push(
      actions(`op:${r.id}`, [
        button({ text: s.approval ? 'Approve' : 'Confirm', actionId: ACTION_CONFIRM, value: r.id, style: 'danger' }),
        button({ text: 'Cancel', actionId: ACTION_CANCEL, value: r.id }),
      ]),
    );
  }
  if (holding && (s.now < r.sendAt! || unchecked)) {
    blocks.push(actions(`op:${r.id}`, [button({ text: 'Undo', actionId: ACTION_UNDO, value: r.id, style: 'danger' })]));
  }
  if (r.status === 'failed' && s.retrySync) {
    blocks.push(actions(`op:${r.id}`, [button({ text: 'Retry sync', actionId: ACTION_RETRY_SYNC, value: r.id, style: 'primary' })]));
  }
  // The notification text is parsed for mentions too: built like the blocks, never raw.
  const on = s.account !== undefined ? md` (account ${accountValue(s.account)})` : md``;
  return { text: md`${s.title}: ${state}${on}`, blocks };
}

/** The request as `--dry-run` shows it; secrets are already masked by the caller. */
export function buildDryRun(title: Mrkdwn, r: CloudRequest, account?: string): Reply {
  const body = r.body && Object.keys(r.body).length ? md`\n${codeBlock(JSON.stringify(r.body, null, 2))}` : md``;
  const to = account !== undefined ? md` to account ${accountValue(account)}` : md``;
  return {
    text: md`Dry run: ${title}${account !== undefined ? md` (account ${accountValue(account)})` : md``}`,
    blocks: [
      section(md`:test_tube: *Dry run — nothing was sent.* ${title} would send${to}:\n${requestLine(r)}${body}`),
      context(md`Run the same command without \`--dry-run\` to do it.`),
    ],
  };
}
