/**
 * The confirmation card of a schedule whose command needs one (issue 25): a destroy- or
 * spend-tier command, or one the channel's policy wants approved. The change flow posts it,
 * on the command's account; its approval, and who may click it, are the command's (and backup
 * delete's, with `--keep`: confirm/judged-as.ts), whatever this card's tier. The schedule is
 * armed once the record succeeded (schedule/arm.ts reads it). A one-off confirmed after its
 * time runs at once, late, within SCHEDULE_GRACE_MS; later, not (its card is then headed "not
 * armed", not "done").
 * Its arguments come only from the schedule (form-only), so it cannot be typed; it sends nothing.
 */
import { z } from 'zod';
import { md, val } from '../../views/mrkdwn.js';
import { defineOperation, modalOnly } from '../define.js';
import type { AnyOperation } from '../types.js';

const args = {
  id: modalOnly(z.string().max(20), 'the schedule'),
  what: modalOnly(z.string().max(1100), 'the command it runs'),
  when: modalOnly(z.string().max(200), 'when it runs'),
  at: modalOnly(z.number().int().optional(), 'a one-off: its time (epoch ms)'),
  until: modalOnly(z.number().int().optional(), 'a one-off: the latest it may still run, late (its time plus SCHEDULE_GRACE_MS)'),
};

/** A one-off confirmed after its time: it runs now, late (within the grace), or not at all. */
export type Lateness = 'late' | 'missed';
const latenessAt = (a: { at?: number | undefined; until?: number | undefined }, now: number): Lateness | undefined =>
  a.at === undefined || now <= a.at ? undefined : a.until !== undefined && now > a.until ? 'missed' : 'late';

const confirmOf = (id: `schedule.${string}`, tier: 'destroy' | 'billing') =>
  defineOperation({
    id,
    summary: `The Confirm of a schedule whose command is ${tier === 'destroy' ? 'destroy' : 'spend'}-tier (posted by /cloud schedule; not typed)`,
    tier,
    mutates: false,
    ephemeral: false,
    args,
    run: async (ctx, a) => ({ id: a.id, late: latenessAt(a, ctx.clock.now()) }),
    change: {
      confirm: true,
      local: true,
      describe: (a) => ({
        title: md`Schedule ${val(a.what)} ${val(a.when)}`,
        lines: [
          md`Confirming arms schedule ${val(a.id)}: each run sends this command as the person who scheduled it, with no further Confirm, if the channel’s rules still allow it then.`,
          ...(/ --keep \d+$/.test(a.what) ? [md`After each backup finishes, the oldest unlocked backups this schedule made beyond the number kept are deleted (at most one per run); backups taken by hand or by another schedule are never deleted.`] : []),
        ],
      }),
      summarize: (r, a) => {
        if (r.late === 'late') return { text: md`Schedule ${val(a.id)} confirmed after its time had passed: it runs now, once, late.` };
        if (r.late === 'missed') {
          const grace = Math.round((a.until! - a.at!) / 60_000);
          return { text: md`Schedule ${val(a.id)} was confirmed more than ${grace} minute${grace === 1 ? md`` : md`s`} (${val('SCHEDULE_GRACE_MS')}) after its time: it does not run. Schedule it again to run it.` };
        }
        return { text: md`Schedule ${val(a.id)} confirmed: it runs ${val(a.when)} (${val('/cloud schedules')} shows its next run).` };
      },
      // What the Confirm decided, for schedule/arm.ts to arm it so.
      outputs: (r): Record<string, string> => (r.late ? { late: r.late } : {}),
      // Confirmed too late, it armed nothing: its card and audit entry must not read as done.
      succeededAs: (o) =>
        o.late === 'missed' ? { icon: md`:warning:`, state: md`not armed: confirmed too late; it does not run`, audit: 'confirmed too late: not armed, it does not run' } : undefined,
    },
  });

export const scheduleConfirm = confirmOf('schedule.confirm', 'destroy');
export const scheduleConfirmSpend = confirmOf('schedule.confirm-spend', 'billing');

/** The card for a command of this tier: spend-tier commands at billing, the rest at destroy. */
export const CONFIRM_OPS: Record<'destroy' | 'billing', AnyOperation> = { destroy: scheduleConfirm, billing: scheduleConfirmSpend };
export const SCHEDULE_CONFIRM_OPS = [scheduleConfirm, scheduleConfirmSpend];
