/**
 * Subscriptions (issue 13): a channel asks to be told when a server's state or a worker's
 * status changes, when usage nears a limit, when an invoice is unpaid, or for a daily digest.
 * Operators subscribe, unsubscribe and mute; anyone who may read may list. They act on the
 * bot's state (scope `bot`), and a subscription polls the account access control admitted.
 * What it posts is what a read shows, so subscribing also needs the asker's right to that
 * read here (`subscribe invoices`: `/cloud account invoices`), ceilings included (control.ts).
 */
import { z } from 'zod';
import { SUBSCRIPTION_ID_PATTERN } from '../../store/ids.js';
import type { SubscriptionKind } from '../../store/monitor-types.js';
import { buildMuted, buildSubscribed, buildSubscriptionList, buildUnsubscribed } from '../../views/subscription-views.js';
import { buildAccessRefusal } from '../../views/access-views.js';
import { serverArg, workerArg } from '../args.js';
import { quote } from '../firewall-syntax.js';
import { tzFlagSchema } from '../schedule-when.js';
import { botEntries, flag, positional, defineBotChange } from '../define.js';
import type { RunContext, SubscribeOutcome } from '../types.js';
import type { ViewContext } from '../../views/types.js';

const percent = (what: string) =>
  flag('N', z.coerce.number({ error: 'must be a percentage' }).int({ error: 'must be a whole percentage' }).min(1, { error: 'must be 1 or more' }).max(100, { error: 'must be at most 100' }).optional(), `alert when ${what} use reaches N % of the limit`);

const timeOfDay = z.string().trim().regex(/^([01]?\d|2[0-3]):[0-5]\d$/, { error: 'must be a time of day like 09:00' });

/** `30m`, `2h`, `1d` (at most 30 days), or `off` to unmute. */
const DURATION = /^(\d{1,4})\s*(s|m|min|h|d)$/i;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };
export const durationSchema = z
  .string()
  .trim()
  .transform((v, ctx) => {
    if (/^(off|0|none|unmute)$/i.test(v)) return null;
    const m = DURATION.exec(v);
    const ms = m ? Number(m[1]) * UNIT_MS[m[2]!.toLowerCase()]! : NaN;
    if (!(ms > 0) || ms > 30 * UNIT_MS.d!) {
      ctx.addIssue({ code: 'custom', message: 'must be a duration like 30m, 2h or 1d (at most 30d), or off' });
      return z.NEVER;
    }
    return ms;
  });

/** A duration read by durationSchema, written back the way it is typed: `off`, `90m`, `2h`, `1d`. */
export function typedDuration(ms: number | null): string {
  if (ms === null) return 'off';
  for (const [unit, size] of [['d', UNIT_MS.d!], ['h', UNIT_MS.h!], ['m', UNIT_MS.m!]] as const) if (ms % size === 0) return `${ms / size}${unit}`;
  return `${ms / 1000}s`;
}

const subscriptionId = z
  .string()
  .trim()
  .regex(SUBSCRIPTION_ID_PATTERN, { error: (i) => `${quote(String(i.input).slice(0, 40))} is not a subscription id (see /cloud subscriptions)` });
/** What `mute` names: a subscription id, a server id or uuid, a worker uuid, or usage / invoices / digest. */
const muteTarget = z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be a subscription id, a server or worker id, or usage, invoices or digest' });

function control(ctx: RunContext) {
  if (!ctx.subscriptions || !ctx.actor?.channelId || !ctx.account) throw new Error('subscriptions are not available here');
  return { subs: ctx.subscriptions, channelId: ctx.actor.channelId, userId: ctx.actor.userId, account: ctx.account, clock: ctx.clock };
}

const channelSubs = botEntries(control);

/** The control checks the equivalent read's access and reads the resource through the admitted account's client. */
async function subscribe(ctx: RunContext, kind: SubscriptionKind, resource: string, params: Record<string, unknown> = {}) {
  const c = control(ctx);
  return c.subs.add({ channelId: c.channelId, account: c.account, kind, resource, params, userId: c.userId, cloud: ctx.cloud, ...(ctx.signal ? { signal: ctx.signal } : {}) });
}

const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const render = (out: SubscribeOutcome, _args: unknown, view: ViewContext) =>
  'refused' in out
    ? buildAccessRefusal(out.refused.refusal, out.refused.command, out.refused.tier)
    : buildSubscribed(out.record, out.created, { now: view.now, ...(out.holds ? { holds: out.holds } : {}), ...(out.invoicesHidden ? { invoicesHidden: true } : {}) });

/** Refused the underlying read here: nothing was subscribed. */
const declined = (out: SubscribeOutcome) => ('refused' in out ? 'ACCESS_DENIED' : undefined);

export const subscribeServer = defineBotChange({
  id: 'subscribe.server',
  summary: 'Tell this channel when a server powers off or on, or an install or reinstall starts and ends',
  args: { server: serverArg },
  run: (ctx, { server }) => subscribe(ctx, 'server', String(server)),
  render,
  declined,
});

export const subscribeWorker = defineBotChange({
  id: 'subscribe.worker',
  summary: 'Tell this channel when a worker starts building (also outside the bot) or fails',
  args: { worker: workerArg },
  run: (ctx, { worker }) => subscribe(ctx, 'worker', worker),
  render,
  declined,
});

export const subscribeUsage = defineBotChange({
  id: 'subscribe.usage',
  summary: 'Tell this channel when CPU, RAM or IP use reaches a share of the account limit (default 90 %)',
  args: { cpu: percent('CPU'), ram: percent('RAM'), ip: percent('IP') },
  run: (ctx, { cpu, ram, ip }) => subscribe(ctx, 'usage', '', defined({ cpu, ram, ip })),
  render,
  declined,
});

export const subscribeInvoices = defineBotChange({
  id: 'subscribe.invoices',
  summary: 'Tell this channel when an invoice is unpaid or overdue',
  args: {},
  run: (ctx) => subscribe(ctx, 'invoices', ''),
  render,
  declined,
});

export const subscribeDigest = defineBotChange({
  id: 'subscribe.digest',
  summary: 'A daily summary in this channel: usage, invoices, state changes, failed builds, watches',
  args: { at: flag('HH:MM', timeOfDay.optional(), 'local time of day (default 09:00)'), tz: flag('ZONE', tzFlagSchema.optional(), 'time zone (default UTC)') },
  run: (ctx, { at, tz }) => subscribe(ctx, 'digest', '', { at: at ?? '09:00', tz: tz ?? 'UTC' }),
  render,
  declined,
});

export const subscriptionList = channelSubs.read({
  id: 'subscriptions.list',
  summary: 'What this channel is subscribed to, firing alerts and mutes',
  args: {},
  run: (c) => c.subs.list(c.channelId),
  render: ({ subs, firing }, _args, view) =>
    buildSubscriptionList(subs, firing, view.now, view.namedDefaultAccount ? { showAccounts: true, defaultAccount: view.namedDefaultAccount } : {}),
});

export const unsubscribe = channelSubs.change({
  id: 'unsubscribe.remove',
  summary: 'Stop one of this channel’s subscriptions (its open alerts are closed)',
  args: { id: positional('subscription-id', subscriptionId, 'the id from /cloud subscriptions') },
  async run(c, { id }) {
    return { id, removed: await c.subs.remove(id, c.channelId) };
  },
  render: ({ id, removed }) => buildUnsubscribed(id, removed),
  declined: ({ removed }) => (removed ? undefined : 'NOT_FOUND'),
});

export const mute = channelSubs.change({
  id: 'mute.set',
  summary: 'Post nothing for a subscription for a while (30m, 2h, 1d; off unmutes)',
  args: {
    target: positional('target', muteTarget, 'a subscription id, a server or worker id, or usage, invoices or digest'),
    // Audited as typed (`2h`, `off`), not as the milliseconds it was read into.
    duration: { ...positional('duration', durationSchema, '30m, 2h, 1d (at most 30d), or off'), audited: typedDuration },
  },
  async run(c, { target, duration }) {
    const now = c.clock.now();
    const until = duration === null ? null : now + duration;
    // `off` says "unmuted" only of a subscription that was muted.
    const wasMuted = until === null ? (await c.subs.list(c.channelId)).subs.filter((s) => s.mutedUntil !== null && s.mutedUntil > now).map((s) => s.id) : [];
    return { target, until, muted: await c.subs.mute(target, c.channelId, until), wasMuted };
  },
  render: ({ target, until, muted, wasMuted }, _args, view) => {
    // A resource may match several subscriptions here (a server followed twice): each is named.
    const replies = (muted.length ? muted : [undefined]).map((sub) => buildMuted(sub, target, until, view.now, sub !== undefined && wasMuted.includes(sub.id)));
    return { text: replies[0]!.text, blocks: replies.flatMap((r) => r.blocks).slice(0, 50) };
  },
  declined: ({ muted }) => (muted.length ? undefined : 'NOT_FOUND'),
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const SUBSCRIPTION_OPS = [subscribeServer, subscribeWorker, subscribeUsage, subscribeInvoices, subscribeDigest, subscriptionList, unsubscribe, mute];
