/**
 * Maintenance windows (issue 25 item 3): `/cloud maintenance server|worker|account … <when>`
 * holds back alerts for what it names until the window ends, then the channel gets one
 * summary; `list` shows the windows in force, `end ID` ends one early. They act on the bot's
 * state (scope `bot`), like subscriptions, on the account access control admitted.
 * `<when>` is a duration (`2h`, `90m`, `1d`, `1h30m`) or `until YYYY-MM-DD HH:MM`, read in
 * `--tz`, else the person's Slack time zone as schedules read theirs (UTC when Slack gives
 * none), named in every answer; a window lasts at most 7 days and must end in the future.
 */
import { z } from 'zod';
import { TZDate } from '@date-fns/tz';
import { MAINTENANCE_ID_PATTERN } from '../../store/ids.js';
import type { MaintenanceKind } from '../../store/maintenance-store.js';
import { buildMaintenanceEnded, buildMaintenanceList, buildMaintenanceRefused, buildMaintenanceStarted } from '../../views/maintenance-views.js';
import { serverArg, workerArg } from '../args.js';
import { quote } from '../firewall-syntax.js';
import { defineBotChange, defineBotRead, flag, positional, rest } from '../define.js';
import type { RunContext } from '../types.js';
import { md, val, type Mrkdwn } from '../../views/mrkdwn.js';
import { formatInZone, tzFlagSchema } from '../schedule-when.js';

/** The longest window (the monitor's own bound is the same). */
const MAX_MS = 7 * 86_400_000;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };
const WHEN_RULE = 'must be a duration like 2h, 90m, 1d or 1h30m, or until YYYY-MM-DD HH:MM (at most 7 days ahead)';

/** `typed`: the words as given, which the audit trail shows (not this structure). */
type When = ({ for: number } | { until: { y: number; mo: number; d: number; h: number; mi: number } }) & { typed: string };

/** The `<when>` words, checked for shape here; the moment they name is worked out at run time, on the bot's clock. */
export const whenSchema = z
  .string()
  .trim()
  .max(40, { error: WHEN_RULE })
  .transform((v, ctx): When => {
    const duration = /^(?:(\d{1,3})d)?\s*(?:(\d{1,3})h)?\s*(?:(\d{1,4})m)?$/i.exec(v);
    if (duration && (duration[1] || duration[2] || duration[3])) {
      const ms = Number(duration[1] ?? 0) * UNIT_MS.d! + Number(duration[2] ?? 0) * UNIT_MS.h! + Number(duration[3] ?? 0) * UNIT_MS.m!;
      if (ms > 0 && ms <= MAX_MS) return { for: ms, typed: v };
    }
    const until = /^until\s+(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/i.exec(v);
    if (until) {
      const [y, mo, d, h, mi] = until.slice(1).map(Number) as [number, number, number, number, number];
      // A day the month has (30 February would roll over into March, a time nobody asked for).
      const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
      if (mo >= 1 && mo <= 12 && d >= 1 && d <= days && h <= 23 && mi <= 59) return { until: { y, mo, d, h, mi }, typed: v };
    }
    ctx.addIssue({ code: 'custom', message: WHEN_RULE });
    return z.NEVER;
  });

/** A `<when>` the clock refuses; `said` is mrkdwn (our words, the typed time as a value). */
class WhenRefused extends Error {
  constructor(readonly said: Mrkdwn) {
    super(said);
  }
}

/** The end of a window asked for at `now`: a duration from now, or a wall-clock time in `tz`. */
export function windowEnd(when: When, now: number, zone: string): number {
  if ('for' in when) return now + when.for;
  const { y, mo, d, h, mi } = when.until;
  const end = new TZDate(y, mo - 1, d, h, mi, 0, zone).getTime();
  const two = (n: number) => String(n).padStart(2, '0');
  if (!(end > now)) throw new WhenRefused(md`${val(`until ${y}-${two(mo)}-${two(d)} ${two(h)}:${two(mi)}`)} (${val(zone)}) is not in the future`);
  if (end - now > MAX_MS) throw new WhenRefused(md`a maintenance window lasts at most 7 days`);
  return end;
}

function control(ctx: RunContext) {
  if (!ctx.maintenance || !ctx.actor?.channelId || !ctx.account) throw new Error('maintenance windows are not available here');
  return { m: ctx.maintenance, channelId: ctx.actor.channelId, userId: ctx.actor.userId, account: ctx.account };
}

/** `--tz`, else the zone schedules use for this person (their Slack time zone; UTC when Slack gives none). */
async function zoneFor(ctx: RunContext, userId: string, tz: string | undefined): Promise<string> {
  return tz ?? (await ctx.schedules?.zoneOf(userId)) ?? 'UTC';
}

async function start(ctx: RunContext, kind: MaintenanceKind, resource: string, when: When, tz: string | undefined) {
  const c = control(ctx);
  const zone = await zoneFor(ctx, c.userId, tz);
  let endsAt: number;
  try {
    endsAt = windowEnd(when, ctx.clock.now(), zone);
  } catch (e) {
    if (e instanceof WhenRefused) return { refused: e.said, window: undefined, zone };
    throw e;
  }
  return { refused: undefined, window: await c.m.start({ channelId: c.channelId, account: c.account, kind, resource, createdBy: c.userId, endsAt }), zone };
}

// The audit trail shows the words typed, not the parsed structure (older records lack them: shown as parsed).
const whenArg = { ...rest('when', whenSchema, '2h, 90m, 1d, 1h30m, or until YYYY-MM-DD HH:MM'), audited: (w: When) => w.typed ?? w };
const maintenanceId = z
  .string()
  .trim()
  .regex(MAINTENANCE_ID_PATTERN, { error: (i) => `${quote(String(i.input).slice(0, 40))} is not a maintenance window id (see /cloud maintenance list)` });
const tzArg = flag('ZONE', tzFlagSchema.optional(), 'time zone of an `until` time (default: yours in Slack)');

const render = (out: Awaited<ReturnType<typeof start>>, _args: unknown, view: { now: number }) =>
  out.window ? buildMaintenanceStarted(out.window, view.now, formatInZone(out.window.endsAt, out.zone)) : buildMaintenanceRefused(out.refused, out.zone);
/** A window refused (past, too long) started nothing. */
const declined = (out: Awaited<ReturnType<typeof start>>) => (out.refused ? 'INVALID_INPUT' : undefined);

export const maintenanceServer = defineBotChange({
  id: 'maintenance.server',
  summary: 'Hold back alerts for a server until planned work ends, then summarise it in this channel',
  args: { server: serverArg, when: whenArg, tz: tzArg },
  run: (ctx, { server, when, tz }) => start(ctx, 'server', String(server), when, tz),
  render,
  declined,
});

export const maintenanceWorker = defineBotChange({
  id: 'maintenance.worker',
  summary: 'Hold back alerts for a worker until planned work ends, then summarise it in this channel',
  args: { worker: workerArg, when: whenArg, tz: tzArg },
  run: (ctx, { worker, when, tz }) => start(ctx, 'worker', worker, when, tz),
  render,
  declined,
});

export const maintenanceAccount = defineBotChange({
  id: 'maintenance.account',
  summary: 'Hold back every alert of the account until planned work ends, then summarise it in this channel',
  args: { when: whenArg, tz: tzArg },
  run: (ctx, { when, tz }) => start(ctx, 'account', '', when, tz),
  render,
  declined,
});

export const maintenanceList = defineBotRead({
  id: 'maintenance.list',
  summary: 'This channel’s maintenance windows in force',
  args: {},
  async run(ctx) {
    const c = control(ctx);
    const zone = await zoneFor(ctx, c.userId, undefined);
    return { windows: await c.m.list(c.channelId), zoneTime: (at: number) => formatInZone(at, zone) };
  },
  render: ({ windows, zoneTime }, _args, view) => buildMaintenanceList(windows, view.now, zoneTime),
});

export const maintenanceEnd = defineBotChange({
  id: 'maintenance.end',
  summary: 'End one of this channel’s maintenance windows early (its summary follows)',
  args: { id: positional('id', maintenanceId, 'the id from /cloud maintenance list') },
  async run(ctx, { id }) {
    const c = control(ctx);
    return { id, outcome: await c.m.end(id, c.channelId, c.userId) };
  },
  render: ({ id, outcome }) => buildMaintenanceEnded(id, outcome),
  // Unknown here, or already over: nothing was ended.
  declined: ({ outcome }) => (outcome.kind === 'unknown' ? 'NOT_FOUND' : outcome.kind === 'over' ? 'ALREADY_OVER' : undefined),
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const MAINTENANCE_OPS = [maintenanceServer, maintenanceWorker, maintenanceAccount, maintenanceList, maintenanceEnd];
