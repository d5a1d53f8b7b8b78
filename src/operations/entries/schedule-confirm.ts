/**
 * The confirmation card of a schedule whose command needs one (issue 25): a destroy- or
 * spend-tier command, or one the channel's policy wants approved. The change flow posts it,
 * with its Confirm (and approval) as for the command itself, on the command's account and at
 * its tier; the schedule is armed once the record succeeded (schedule/scheduler.ts reads it).
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
};

const confirmOf = (id: `schedule.${string}`, tier: 'destroy' | 'billing') =>
  defineOperation({
    id,
    summary: `The Confirm of a schedule whose command is ${tier === 'destroy' ? 'destroy' : 'spend'}-tier (posted by /cloud schedule; not typed)`,
    tier,
    mutates: false,
    ephemeral: false,
    args,
    run: async (_ctx, a) => ({ id: a.id }),
    change: {
      confirm: true,
      local: true,
      describe: (a) => ({
        title: md`Schedule ${val(a.what)} ${val(a.when)}`,
        lines: [
          md`Confirming arms schedule ${val(a.id)}: each run sends this command as the person who scheduled it, with no further Confirm, if the channel’s rules still allow it then.`,
          ...(/ --keep \d+$/.test(a.what) ? [md`After each backup finishes, the oldest unlocked backups beyond the number kept are deleted (at most one per run).`] : []),
        ],
      }),
      summarize: (_r, a) => ({ text: md`Schedule ${val(a.id)} confirmed: it runs ${val(a.when)} (${val('/cloud schedules')} shows its next run).` }),
    },
  });

export const scheduleConfirm = confirmOf('schedule.confirm', 'destroy');
export const scheduleConfirmSpend = confirmOf('schedule.confirm-spend', 'billing');

/** The card for a command of this tier: spend-tier commands at billing, the rest at destroy. */
export const CONFIRM_OPS: Record<'destroy' | 'billing', AnyOperation> = { destroy: scheduleConfirm, billing: scheduleConfirmSpend };
export const SCHEDULE_CONFIRM_OPS = [scheduleConfirm, scheduleConfirmSpend];
