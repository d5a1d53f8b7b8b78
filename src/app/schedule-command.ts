/**
 * The command a schedule runs, read as the slash command would read it: `/cloud` and a
 * `--keep N` inside the quotes are taken off, the rest parsed against the catalog. Used when
 * scheduling (to check it) and at each run (the catalog may have changed since).
 */
import type { Access } from '../access/access.js';
import { maskedArgs } from '../access/secrets.js';
import type { Catalog } from '../operations/catalog.js';
import { parseCommand } from '../operations/parse-command.js';
import { argMessage } from '../operations/parse-args.js';
import type { AnyOperation, ArgSpec } from '../operations/types.js';
import { keepSchema } from '../operations/entries/schedule-ops.js';
import { md, val, type Mrkdwn } from '../views/mrkdwn.js';

export type ScheduledCommand =
  | { ok: true; text: string; op: AnyOperation; args: Record<string, unknown>; masked: Record<string, unknown>; account?: string; keep?: number }
  | { ok: false; problem: Mrkdwn };

const KEEP = /(^|\s)--keep(?:\s+|=)(\S+)(?=\s|$)/;

export function readScheduled(typed: string, catalog: Catalog): ScheduledCommand {
  let text = typed.trim().replace(/^\/?cloud\s+/i, '');
  let keep: number | undefined;
  const k = KEEP.exec(text);
  if (k) {
    const parsed = keepSchema.safeParse(k[2]);
    if (!parsed.success) return { ok: false, problem: md`${val('--keep')}: ${val(parsed.error.issues[0]?.message ?? 'is not a number')}` };
    keep = parsed.data;
    text = (text.slice(0, k.index) + text.slice(k.index + k[0].length)).trim();
  }
  const parsed = parseCommand(text, catalog);
  if (parsed.kind === 'help') return { ok: false, problem: md`help cannot be scheduled; put a command in the quotes, e.g. ${val('"backup create web1"')}` };
  if (parsed.kind === 'problem') return { ok: false, problem: md`${parsed.problem.message} (in ${val(`/cloud ${text}`)})` };
  const { op, args } = parsed;
  // The entry's cross-field check (a firewall rule's limits, a deploy's source), as a typed change gets it.
  const checked = op.change?.check?.(args as never);
  if (checked && !checked.ok) {
    const [name, message] = Object.entries(checked.fieldErrors)[0] ?? ['', 'is not accepted'];
    return { ok: false, problem: md`${argMessage(op, name, message)} (in ${val(`/cloud ${text}`)})` };
  }
  if (op.resource === 'schedule' || op.resource === 'schedules') return { ok: false, problem: md`a schedule cannot schedule schedules` };
  if (parsed.dryRun) return { ok: false, problem: md`a dry run answers now; leave ${val('--dry-run')} out of a schedule` };
  // No one is there to fill in a form when it runs: the command must be complete as typed.
  if (op.change?.modal?.whenBare && !parsed.flagsGiven && Object.keys(args).length === 0) {
    return { ok: false, problem: md`${val(op.command)} opens a form when typed bare; give its arguments in the quotes` };
  }
  if ((Object.values(op.args) as ArgSpec[]).some((a) => a.kind === 'modal')) return { ok: false, problem: md`${val(op.command)} asks for a secret in a form, so it cannot run unattended` };
  // The bot's own changes (mute, maintenance, subscribe, alias, watch cancel) act on its records at
  // once and have no change flow for a schedule to confirm; a schedule runs the cloud's.
  if (!op.change && op.scope !== 'cloud' && op.tier === 'change') {
    return { ok: false, problem: md`${val(op.command)} changes the bot’s own settings, not the cloud; a schedule runs cloud changes and reads, so it cannot be scheduled` };
  }
  // A scheduled read's answer is posted in the channel, for everyone there. A credential, the
  // audit trail, the policy and invoices are answered to the asker alone (README, "What is never
  // shown"), so they are never scheduled; read at each run too, this stops one scheduled before.
  if (!op.change && op.tier !== 'read') {
    return { ok: false, problem: md`${val(op.command)} is answered only to the person who asks, and a schedule posts its answer in the channel, so it cannot be scheduled` };
  }
  // `--all` lists the records of every channel the person may read (`watch list --all`): posted
  // here, it would show this channel's members what only other channels may see.
  if (!op.change && args.all === true) {
    return { ok: false, problem: md`${val(`${op.command} --all`)} lists other channels’ records, and a schedule posts its answer in this channel, so it cannot be scheduled` };
  }
  if (keep !== undefined && op.id !== 'backup.create') return { ok: false, problem: md`${val('--keep')} goes with ${val('backup create')} only` };
  return { ok: true, text, op, args, masked: maskedArgs(op, args), ...(parsed.account !== undefined ? { account: parsed.account } : {}), ...(keep !== undefined ? { keep } : {}) };
}

/**
 * Whether a second admin must approve a schedule of these operations (its command and, with
 * `--keep`, backup delete) in this channel on this account, under the rules in force now: asked
 * when it is scheduled (its card) and again at each run.
 */
export function scheduleWantsApproval(access: Pick<Access, 'approvalFor'>, ops: readonly AnyOperation[], channelId: string, account: string): boolean {
  return ops.some((o) => !!o.change && !!access.approvalFor(o, channelId, account));
}
