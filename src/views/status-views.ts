/**
 * The one status message each change gets in the channel, rendered from its record alone, so
 * any part of the bot (a click, the expiry sweep, a restart) can edit it in place. Buttons show
 * only while a click can still do something.
 */
import type { ErrorText } from './cloud-error-text.js';
import type { Block, CloudRequest, Reply } from '../operations/types.js';
import type { OperationRecord } from '../store/types.js';
import { actions, button, code, context, esc, fields, section } from './blocks.js';
import { elapsed, orDash } from './format.js';

export const ACTION_CONFIRM = 'op_confirm';
export const ACTION_CANCEL = 'op_cancel';
export const ACTION_RETRY_SYNC = 'op_retry_sync';

const ICON: Record<OperationRecord['status'], string> = {
  pending: ':warning:',
  confirmed: ':hourglass_flowing_sand:',
  running: ':hourglass_flowing_sand:',
  succeeded: ':white_check_mark:',
  failed: ':x:',
  cancelled: ':no_entry_sign:',
  expired: ':alarm_clock:',
};

const STATE: Record<OperationRecord['status'], string> = {
  pending: 'awaiting confirmation',
  confirmed: 'confirmed',
  running: 'running',
  succeeded: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
  expired: 'expired — nothing was done',
};

export interface StatusInput {
  record: OperationRecord;
  /** From the catalog entry's `describe`. */
  title: string;
  lines: string[];
  /** The request as sent (secrets masked). */
  request: CloudRequest;
  /** Whether a click is needed before anything is sent. */
  needsConfirm: boolean;
  /** The click must be a second admin's Approve (two-person approval). */
  approval?: boolean;
  /** The confirmer must type this first (shown so nobody is surprised by the dialog). */
  typeToConfirm?: string;
  /** The cloud's error in words, once failed. */
  error?: ErrorText;
  /** Offer "Retry sync" (HYPERVISOR_SYNC_FAILED on a security group). */
  retrySync?: boolean;
  now: number;
}

const user = (id: string | null) => (id ? `<@${id}>` : 'someone');

export function requestLine(r: CloudRequest): string {
  return code(`${r.method} ${r.path}`);
}

export function buildStatusMessage(s: StatusInput): Reply {
  const { record: r } = s;
  // A change that needs no confirmation is "starting" until it runs, never "awaiting confirmation".
  const starting = r.status === 'pending' && !s.needsConfirm;
  const icon = starting ? ':hourglass_flowing_sand:' : ICON[r.status];
  const state = starting ? 'starting' : r.status === 'pending' && s.approval ? 'awaiting approval by a second admin' : STATE[r.status];
  const blocks: Block[] = [section(`${icon} *${esc(s.title)}* — ${state}`)];
  if ((r.status === 'pending' && !starting) || r.status === 'expired' || r.status === 'cancelled') {
    if (s.lines.length) blocks.push(section(s.lines.map((l) => `• ${l}`).join('\n')));
  }
  if (r.status === 'succeeded' && r.result) {
    const summary = typeof r.result.text === 'string' ? r.result.text : '';
    if (summary) blocks.push(section(summary));
    const details = r.result.details as Record<string, string | number> | undefined;
    if (details && Object.keys(details).length) blocks.push(fields(Object.entries(details).map(([k, v]) => [esc(k), esc(String(v))])));
  }
  if (r.status === 'failed') {
    const e = s.error;
    blocks.push(section(e ? `${esc(e.summary)}\n_${esc(e.nextStep)}_ (code ${code(e.code)})` : esc(orDash(r.errorMessage))));
    if (e?.fields) blocks.push(section(Object.entries(e.fields).map(([f, m]) => `• ${code(f)}: ${m.map(esc).join('; ')}`).join('\n')));
  }

  const who = [`Requested by ${user(r.requestedBy)}`];
  if (r.approvedBy) who.push(`approved by ${user(r.approvedBy)}`);
  else if (r.confirmedBy && s.needsConfirm) who.push(`confirmed by ${user(r.confirmedBy)}`);
  if (r.status === 'cancelled') who.push(`cancelled by ${user(typeof r.result?.cancelledBy === 'string' ? r.result.cancelledBy : null)}`);
  if (r.status === 'pending' && !starting) who.push(`expires in ${elapsed(s.now, r.expiresAt)}`);
  if (r.finishedAt && (r.status === 'succeeded' || r.status === 'failed')) {
    who.push(`took ${elapsed(r.confirmedAt ?? r.createdAt, r.finishedAt)}`);
  }
  if (r.status !== 'pending' && r.status !== 'cancelled' && r.status !== 'expired') who.push(`sent ${requestLine(s.request)}`);
  blocks.push(context(who.join(' · ')));

  if (r.status === 'pending' && s.needsConfirm) {
    if (s.approval) blocks.push(context(`Needs a second admin: <@${r.requestedBy}> cannot approve their own request.`));
    if (s.typeToConfirm) blocks.push(context(`Confirming asks you to type ${code(s.typeToConfirm)}.`));
    blocks.push(
      actions(`op:${r.id}`, [
        button({ text: s.approval ? 'Approve' : 'Confirm', actionId: ACTION_CONFIRM, value: r.id, style: 'danger' }),
        button({ text: 'Cancel', actionId: ACTION_CANCEL, value: r.id }),
      ]),
    );
  }
  if (r.status === 'failed' && s.retrySync) {
    blocks.push(actions(`op:${r.id}`, [button({ text: 'Retry sync', actionId: ACTION_RETRY_SYNC, value: r.id, style: 'primary' })]));
  }
  return { text: `${s.title}: ${state}`, blocks };
}

/** The request as `--dry-run` shows it; secrets are already masked by the caller. */
export function buildDryRun(title: string, r: CloudRequest): Reply {
  const body = r.body && Object.keys(r.body).length ? `\n\`\`\`${esc(JSON.stringify(r.body, null, 2))}\`\`\`` : '';
  return {
    text: `Dry run: ${title}`,
    blocks: [
      section(`:test_tube: *Dry run — nothing was sent.* ${esc(title)} would send:\n${requestLine(r)}${body}`),
      context('Run the same command without `--dry-run` to do it.'),
    ],
  };
}
