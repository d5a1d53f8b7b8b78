/**
 * Alerts in Slack (issue 13): one message per incident, edited in place from firing to
 * resolved, short thread replies for each change, and the answers to the snooze buttons.
 * The condition's words are in alert-words.ts. Buttons show only while the alert fires.
 *
 * Slack requires distinct action_ids within one actions block, so each button's action_id is
 * its constant plus `:` and a number (`alert_run:0`, `alert_snooze:1`): listeners match with
 * `alertActionPattern(ALERT_RUN)` (`^alert_run(:\d+)?$`), never with the bare constant.
 */
import type { SubscriptionKind } from '../store/monitor-types.js';
import type { Block, Reply } from './types.js';
import type { types } from '@slack/bolt';
import { actions, button, context, LIMITS, section } from './blocks.js';
import { join, md, val, type Mrkdwn } from './mrkdwn.js';
import { elapsed, moment } from './format.js';
import { accountValue } from './account-label.js';
import { conditionWords } from './alert-words.js';
import { words } from './words.js';

export const ALERT_RUN = 'alert_run';
export const ALERT_WATCH = 'alert_watch';
export const ALERT_SNOOZE = 'alert_snooze';

/** Matches the action_ids made from `id` (`alert_run`, `alert_run:0`, …), for the listener's route. */
export function alertActionPattern(id: typeof ALERT_RUN | typeof ALERT_WATCH | typeof ALERT_SNOOZE): RegExp {
  return new RegExp(`^${id}(?::\\d+)?$`);
}

/** A button of the catalog: the click runs `op` with `args` through access check, confirmation and audit. */
export interface AlertAction {
  label: string;
  op: string;
  args: Record<string, unknown>;
  /** The account name (not its label) the operation acts on. */
  account?: string;
  /** Start a watch instead of a one-off read (action id ALERT_WATCH). */
  watch?: boolean;
}

/** The value of an ALERT_RUN / ALERT_WATCH button (JSON): re-validated at the click like typed input. */
export interface AlertButtonValue {
  op: string;
  args: Record<string, unknown>;
  account?: string;
}

/** The value of an ALERT_SNOOZE button (JSON). */
export interface SnoozeButtonValue {
  sub: string;
  ms: number;
}

export const SNOOZE_CHOICES: readonly { label: string; ms: number }[] = [
  { label: 'Snooze 1 h', ms: 3_600_000 },
  { label: 'Snooze 1 day', ms: 86_400_000 },
];

export interface AlertInput {
  kind: SubscriptionKind;
  resource: string;
  condition: string;
  detail: Record<string, unknown>;
  status: 'firing' | 'resolved';
  startedAt: number;
  resolvedAt: number | null;
  now: number;
  /** The account's label, shown when set (several accounts declared). */
  account?: string;
  subscriptionId: string;
  actions: AlertAction[];
  /** For a thread reply: what changed. Default: 'fired' while firing, 'resolved' once resolved. */
  change?: 'fired' | 'changed' | 'resolved';
}

/** Why an alert's watching ended while it still fired (its detail's `unwatched`). */
export type UnwatchedWhy = 'unsubscribed' | 'policy';

const UNWATCHED_WHY: Record<UnwatchedWhy, Mrkdwn> = {
  unsubscribed: md`the subscription was removed`,
  policy: md`this channel's access policy no longer lets it read this`,
};

const unwatchedOf = (a: AlertInput): UnwatchedWhy | undefined => {
  const why = a.status === 'resolved' ? a.detail.unwatched : undefined;
  return why === 'unsubscribed' || why === 'policy' ? why : undefined;
};

/** Room for the snooze buttons in one actions block. */
const MAX_ACTIONS = LIMITS.actionsElements - SNOOZE_CHOICES.length;
const ACTIONS_BLOCK = 'alert_actions';


const duration = (from: number, to: number): Mrkdwn => (Number.isFinite(from) && Number.isFinite(to) ? words(elapsed(from, to)) : md`?`);
const endOf = (a: AlertInput): number => (a.status === 'resolved' ? (a.resolvedAt ?? a.now) : a.now);
const onAccount = (account: string | undefined): Mrkdwn => (account !== undefined ? md` (account ${accountValue(account)})` : md``);

/** A JSON value for a button, or undefined if Slack would refuse it (too long) or it cannot be written. */
function buttonValue(v: unknown): string | undefined {
  try {
    const s = JSON.stringify(v);
    return s !== undefined && s.length <= LIMITS.buttonValue ? s : undefined;
  } catch {
    return undefined;
  }
}

function alertButtons(a: AlertInput): Block | undefined {
  const buttons: types.Button[] = [];
  a.actions.slice(0, MAX_ACTIONS).forEach((x, i) => {
    const value = buttonValue({ op: x.op, args: x.args, ...(x.account !== undefined ? { account: x.account } : {}) } satisfies AlertButtonValue);
    // A value Slack would refuse leaves its button out: the alert itself must still post.
    if (value !== undefined) buttons.push(button({ text: x.label, actionId: `${x.watch ? ALERT_WATCH : ALERT_RUN}:${i}`, value }));
  });
  SNOOZE_CHOICES.forEach((s, i) => {
    const value = buttonValue({ sub: a.subscriptionId, ms: s.ms } satisfies SnoozeButtonValue);
    if (value !== undefined) buttons.push(button({ text: s.label, actionId: `${ALERT_SNOOZE}:${i}`, value }));
  });
  return buttons.length ? actions(ACTIONS_BLOCK, buttons) : undefined;
}

/** The incident's one message: posted when it fires, edited in place when it resolves. */
export function buildAlertMessage(a: AlertInput): Reply {
  const w = conditionWords(a, a.now);
  const lasted = duration(a.startedAt, endOf(a));
  const sub = md`subscription ${val(a.subscriptionId)}`;
  const account = a.account !== undefined ? [md`account ${accountValue(a.account)}`] : [];
  const unwatched = unwatchedOf(a);
  if (unwatched) {
    // The watching ended, not the problem: what was last seen, never "resolved".
    const seen = md`Still firing when last seen: ${w.firing}`;
    return {
      text: md`No longer watched: ${w.firing} when last seen${onAccount(a.account)}`,
      blocks: [
        section(md`:no_bell: *No longer watched:* ${UNWATCHED_WHY[unwatched]}. ${seen}.`),
        context(join([md`From ${moment(a.startedAt)} to ${moment(endOf(a))} (${lasted}), when it was last seen`, sub, ...account], ' · ')),
      ],
    };
  }
  if (a.status === 'resolved') {
    const said = md`${w.resolved} after ${lasted}`;
    return {
      text: md`Resolved: ${said}${onAccount(a.account)}`,
      blocks: [
        section(md`:white_check_mark: *Resolved:* ${said}.`),
        context(join([md`Was: ${w.short}`, md`from ${moment(a.startedAt)} to ${moment(endOf(a))}`, sub, ...account], ' · ')),
      ],
    };
  }
  const facts = w.lines.length ? md`\n${join(w.lines.map((l) => md`• ${l}`), '\n')}` : md``;
  const blocks: Block[] = [
    section(md`${w.icon} *${w.firing}*${facts}`),
    context(join([md`Since ${moment(a.startedAt)} (${lasted})`, sub, ...account], ' · ')),
  ];
  const buttons = alertButtons(a);
  if (buttons) blocks.push(buttons);
  // The notification text is parsed too: values only, and it pings nobody.
  return { text: md`${w.firing}${onAccount(a.account)}`, blocks };
}

/** A short thread reply under the alert for one change. */
export function buildAlertFollowUp(a: AlertInput): Reply {
  const w = conditionWords(a, a.now);
  const change = a.change ?? (a.status === 'resolved' ? 'resolved' : 'fired');
  let said: Mrkdwn;
  let icon: Mrkdwn;
  if (change === 'resolved') {
    said = md`Resolved: ${w.resolved} after ${duration(a.startedAt, endOf(a))}.`;
    icon = md`:white_check_mark:`;
  } else if (change === 'changed') {
    said = md`Now: ${w.firing} (for ${duration(a.startedAt, a.now)}).`;
    icon = md`:arrows_counterclockwise:`;
  } else {
    said = md`Fired: ${w.firing}.`;
    icon = w.icon;
  }
  const facts = change !== 'resolved' && w.lines.length ? md` ${join(w.lines, ' · ')}` : md``;
  return { text: said, blocks: [section(md`${icon} ${said}${facts}`)] };
}

/** The private answer to a snooze button (or `/cloud mute` from an alert). */
export function buildSnoozed(until: number, now: number, subscriptionId: string): Reply {
  const sub = val(subscriptionId);
  return {
    text: md`Snoozed ${sub} for ${duration(now, until)}`,
    blocks: [
      section(md`:zzz: Snoozed subscription ${sub} until ${moment(until)} (in ${duration(now, until)}): nothing new is posted for it until then.`),
      context(md`Alerts already posted are still marked resolved when they clear. ${val(`/cloud mute ${subscriptionId} off`)} unmutes it.`),
    ],
  };
}

/** The snooze button of a subscription that is gone. */
export function buildNothingToSnooze(subscriptionId: string): Reply {
  const t = md`Nothing to snooze: subscription ${val(subscriptionId)} was removed from this channel.`;
  return { text: t, blocks: [section(t)] };
}

/** A snooze or alert button whose value cannot be read (an older message, a forged click). */
export function buildAlertButtonUnreadable(): Reply {
  const t = md`This button is out of date. Use ${val('/cloud subscriptions')} and ${val('/cloud mute')} instead.`;
  return { text: t, blocks: [section(t)] };
}
