/**
 * Subscriptions in Slack (issue 13): the channel's list, and the answers to subscribe,
 * unsubscribe and mute. Resources and digest settings were typed by a person, so they are
 * values; the notification texts name nobody.
 */
import type { SubscriptionRecord } from '../store/monitor-types.js';
import type { Reply } from './types.js';
import { context, header, lineSections, section } from './blocks.js';
import { join, md, mention, val, type Mrkdwn } from './mrkdwn.js';
import { lasting, moment, plural } from './format.js';
import { accountValue } from './account-label.js';
import { conditionWords } from './alert-words.js';

const METRIC_NAMES: [key: string, name: Mrkdwn][] = [
  ['cpu', md`CPU`],
  ['ram', md`RAM`],
  ['ip', md`IP`],
];

const threshold = (v: unknown): Mrkdwn | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? md`${v}%` : typeof v === 'string' && v !== '' ? val(v) : undefined;

/** What a subscription follows: "server `101`", "usage ≥ CPU 80% · RAM 90%", "daily digest at `09:00` `Europe/Berlin`". */
export function subscriptionWhat(sub: Pick<SubscriptionRecord, 'kind' | 'resource' | 'params'>): Mrkdwn {
  const params = sub.params ?? {};
  switch (sub.kind) {
    case 'server':
      return md`server ${val(sub.resource)}`;
    case 'worker':
      return md`worker ${val(sub.resource)}`;
    case 'usage': {
      const set = METRIC_NAMES.flatMap(([key, name]) => {
        const t = threshold(params[key]);
        return t ? [md`${name} ${t}`] : [];
      });
      return set.length ? md`usage ≥ ${join(set, ' · ')}` : md`usage (CPU, RAM, IP at the default threshold)`;
    }
    case 'invoices':
      return md`new unpaid or overdue invoices`;
    case 'digest': {
      const at = typeof params.at === 'string' ? val(params.at) : md`?`;
      const tz = typeof params.tz === 'string' ? md` ${val(params.tz)}` : md``;
      return md`daily digest at ${at}${tz}`;
    }
    default:
      return md`${val(String(sub.kind))}${sub.resource ? md` ${val(sub.resource)}` : md``}`;
  }
}

/** " · muted until … (in 2 hours)" while muted; nothing otherwise. */
function mutedNote(sub: SubscriptionRecord, now: number): Mrkdwn {
  if (sub.mutedUntil === null || !(sub.mutedUntil > now)) return md``;
  return md` · :zzz: muted until ${moment(sub.mutedUntil)} (in ${lasting(now, sub.mutedUntil)})`;
}

export interface SubscriptionListOptions {
  /** Name each subscription's account (several declared); one without is on `defaultAccount`. */
  showAccounts?: boolean;
  defaultAccount?: string;
}

const HOW_TO_SUBSCRIBE = md`Subscribe with ${val('/cloud subscribe server <server>')}, ${val('/cloud subscribe worker <worker-uuid>')}, ${val('/cloud subscribe usage --cpu 80 --ram 90 --ip 90')}, ${val('/cloud subscribe invoices')} or ${val('/cloud subscribe digest --at 09:00 --tz Europe/Berlin')}.`;

/** `/cloud subscriptions`: the channel's active subscriptions, oldest first. */
export function buildSubscriptionList(subs: SubscriptionRecord[], firing: Record<string, number>, now: number, opts: SubscriptionListOptions = {}): Reply {
  if (subs.length === 0) {
    return { text: md`No subscriptions in this channel.`, blocks: [section(md`No subscriptions in this channel. ${HOW_TO_SUBSCRIBE}`)] };
  }
  const accountOf = (s: SubscriptionRecord): Mrkdwn => {
    if (!opts.showAccounts) return md``;
    const name = s.account ?? opts.defaultAccount;
    return name != null ? md` · account ${accountValue(name)}` : md` · the default account`;
  };
  const lines = subs.map((s) => {
    const n = Object.prototype.hasOwnProperty.call(firing, s.id) ? firing[s.id]! : 0;
    const alerts = n > 0 ? md` · :red_circle: ${n} firing` : md``;
    return md`• ${val(s.id)} ${subscriptionWhat(s)}${accountOf(s)} · by ${mention(s.createdBy)}${alerts}${mutedNote(s, now)}`;
  });
  const muted = subs.filter((s) => s.mutedUntil !== null && s.mutedUntil > now).length;
  return {
    text: md`${plural(subs.length, md`subscription`, md`subscriptions`)} in this channel${muted ? md`, ${muted} muted` : md``}`,
    blocks: [
      header('Subscriptions'),
      ...lineSections(lines, 45),
      context(md`Stop one with \`/cloud unsubscribe &lt;id&gt;\`; silence one with \`/cloud mute &lt;id&gt; &lt;duration&gt;\` (\`off\` unmutes).`),
    ],
  };
}

export interface SubscribedOptions {
  account?: string;
  /** Conditions that hold now (from the read the subscribe made); undefined: not shown (a digest). */
  holds?: { condition: string; detail: Record<string, unknown> }[];
  /** A digest that leaves out invoices: the channel may not read them. */
  invoicesHidden?: boolean;
  /** The moment of the answer ("issued 3 days ago"); default the subscription's creation. */
  now?: number;
}

/** What holds now, as the alert would say it; or that nothing does. */
function nowLines(sub: SubscriptionRecord, holds: SubscribedOptions['holds'], now: number): Mrkdwn[] {
  if (!holds) return [];
  if (!holds.length) return [md`Now: nothing to alert about.`];
  return holds.map((h) => {
    const w = conditionWords({ kind: sub.kind, resource: sub.resource, condition: h.condition, detail: h.detail }, now);
    return md`${w.icon} Now: ${w.firing}.`;
  });
}

/** `/cloud subscribe …`: created, or the one this channel already has, and what holds now. */
export function buildSubscribed(sub: SubscriptionRecord, created: boolean, opts: SubscribedOptions = {}): Reply {
  const on = opts.account !== undefined ? md` on account ${accountValue(opts.account)}` : md``;
  const what = subscriptionWhat(sub);
  const state = nowLines(sub, opts.holds, opts.now ?? sub.createdAt);
  const stateBlocks = state.length ? [section(join(state, '\n'))] : [];
  const opening = opts.holds?.length ? [context(md`It already holds: an alert opens here once the monitor confirms it.`)] : [];
  const hidden = opts.invoicesHidden ? [context(md`Invoices are left out of it: this channel may not read them on this account (${val('/cloud policy')}).`)] : [];
  if (!created) {
    const t = md`This channel is already subscribed to ${what}${on} as ${val(sub.id)}.`;
    return { text: t, blocks: [section(t), ...stateBlocks, ...hidden] };
  }
  const said = md`Subscribed this channel to ${what}${on} as ${val(sub.id)}.`;
  const next =
    sub.kind === 'digest'
      ? md`The digest is posted here once a day at that time.`
      : md`An alert is posted here while something is wrong, and edited when it clears. ${val(`/cloud mute ${sub.id} 1h`)} silences it; ${val(`/cloud unsubscribe ${sub.id}`)} stops it.`;
  return { text: said, blocks: [section(md`:bell: ${said}`), ...stateBlocks, ...opening, context(next), ...hidden] };
}

/** `/cloud unsubscribe <id>`. */
export function buildUnsubscribed(id: string, removed: SubscriptionRecord | undefined): Reply {
  if (!removed) {
    const t = md`No active subscription ${val(id)} in this channel (unknown or already removed).`;
    return { text: t, blocks: [section(t), context(md`${val('/cloud subscriptions')} lists this channel's subscriptions.`)] };
  }
  const t = md`Unsubscribed ${val(removed.id)} (${subscriptionWhat(removed)}): nothing more is posted for it here.`;
  return { text: t, blocks: [section(md`:no_bell: ${t}`)] };
}

/** `/cloud mute <id|resource> <duration>` (and `off`: `until` null; `wasMuted`: whether there was a mute to end). */
export function buildMuted(sub: SubscriptionRecord | undefined, idOrWhat: string, until: number | null, now: number, wasMuted = true): Reply {
  if (!sub) {
    const t = md`Nothing to mute: no active subscription in this channel matches ${val(idOrWhat)}.`;
    return { text: t, blocks: [section(t), context(md`${val('/cloud subscriptions')} lists this channel's subscriptions.`)] };
  }
  const which = md`${val(sub.id)} (${subscriptionWhat(sub)})`;
  if (until === null || !(until > now)) {
    if (!wasMuted) {
      const t = md`${which} was not muted: alerts are posted as usual.`;
      return { text: t, blocks: [section(md`:bell: ${t}`)] };
    }
    const t = md`Unmuted ${which}: alerts are posted again.`;
    return { text: t, blocks: [section(md`:bell: ${t}`)] };
  }
  const t = md`Muted ${which} until ${moment(until)} (in ${lasting(now, until)}).`;
  return {
    text: md`Muted ${val(sub.id)} for ${lasting(now, until)}.`,
    blocks: [section(md`:zzz: ${t}`), context(md`Nothing new is posted for it until then; alerts already posted are still marked resolved when they clear.`)],
  };
}
