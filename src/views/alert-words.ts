/**
 * What an alert condition says (issue 13). The monitor emits a kind, a condition key and its
 * detail; the words are chosen here, so the alert, its thread replies and the digest read
 * alike. Every detail value came from the cloud (a resource id was typed by a person), so
 * each is shown as a number or a value, never as markup — whatever type it arrives as.
 */
import type { SubscriptionKind } from '../store/monitor-types.js';
import { POWER_STATES } from '../cloud/server-status.js';
import { ago, bytes, money } from './format.js';
import { join, md, val, type Mrkdwn } from './mrkdwn.js';
import { statusWord, words } from './words.js';

export interface ConditionWords {
  icon: Mrkdwn;
  /** While firing, a sentence without its end: "Server `101` is powered off". */
  firing: Mrkdwn;
  /** Once resolved, read before " after 12 minutes": "Server `101` is back on". */
  resolved: Mrkdwn;
  /** For lists (the digest): "Server `101` powered off". */
  short: Mrkdwn;
  /** Facts shown under the subject while firing (a task's message, an invoice's amount). */
  lines: Mrkdwn[];
}

export interface ConditionInput {
  kind: SubscriptionKind;
  resource: string;
  condition: string;
  detail: Record<string, unknown>;
}

const RED = md`:red_circle:`;
const WARN = md`:warning:`;
const BUSY = md`:hourglass_flowing_sand:`;

/** Outside text of a detail as a string, if there is any. */
function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** A number as it is; anything else the detail holds shown as a value; nothing as "?". */
function num(v: unknown, show: (n: number) => Mrkdwn = (n) => md`${n}`): Mrkdwn {
  if (typeof v === 'number' && Number.isFinite(v)) return show(v);
  const t = text(v);
  return t === undefined ? md`?` : val(t);
}

/** Application statuses the spec names during which a server is busy, as verbs for "finished …". */
const BUSY_VERBS: Record<string, Mrkdwn> = { installing: md`installing`, reinstalling: md`reinstalling`, restoring: md`restoring` };
const BUILD_STATUSES: ReadonlySet<string> = new Set(['pending', 'queued', 'building', 'deploying', 'in_progress']);
const FAILED_STATUSES: ReadonlySet<string> = new Set(['failed', 'error', 'errored', 'cancelled', 'canceled', 'suspended']);

function server(resource: string, condition: string, d: Record<string, unknown>): ConditionWords | undefined {
  const s = md`Server ${val(resource)}`;
  if (condition === 'power-off') {
    const state = text(d.state);
    const how = state && state !== 'stopped' ? md` (power state ${statusWord(state, POWER_STATES)})` : md``;
    return { icon: RED, firing: md`${s} is powered off${how}`, resolved: md`${s} is back on`, short: md`${s} powered off${how}`, lines: [] };
  }
  if (condition === 'busy') {
    const status = text(d.status);
    if (status === 'suspended') {
      return { icon: RED, firing: md`${s} is suspended`, resolved: md`${s} is no longer suspended`, short: md`${s} suspended`, lines: [] };
    }
    const verb = status !== undefined && Object.hasOwn(BUSY_VERBS, status) ? BUSY_VERBS[status] : undefined;
    const shown = verb ?? val(status);
    return {
      icon: BUSY,
      firing: md`${s} is busy: an install or reinstall in progress (${shown})`,
      resolved: verb ? md`${s} finished ${verb}` : md`${s} is no longer busy (was ${shown})`,
      short: md`${s} busy (${shown})`,
      lines: [],
    };
  }
  if (condition === 'task-failed') {
    const action = text(d.action);
    const message = text(d.message);
    const task = action ? md`The power task ${val(action)}` : md`A power task`;
    return {
      icon: RED,
      firing: md`${task} failed on server ${val(resource)}`,
      resolved: md`${s} has no failed power task any more`,
      short: md`${s}: ${action ? md`power task ${val(action)}` : md`a power task`} failed`,
      lines: message ? [md`Message: ${val(message)}`] : [],
    };
  }
  return undefined;
}

function worker(resource: string, condition: string, d: Record<string, unknown>): ConditionWords | undefined {
  const w = md`Worker ${val(resource)}`;
  const status = text(d.status);
  if (condition === 'building') {
    const shown = md` (${statusWord(status, BUILD_STATUSES)})`;
    return { icon: BUSY, firing: md`${w} is building${shown}`, resolved: md`${w} finished building`, short: md`${w} building${shown}`, lines: [] };
  }
  if (condition === 'failed') {
    const error = text(d.error);
    const shown = status !== undefined ? md` (${statusWord(status, FAILED_STATUSES)})` : md``;
    return {
      icon: RED,
      firing: md`${w} failed${shown}`,
      resolved: md`${w} is back to normal`,
      short: md`${w} failed${shown}`,
      lines: error ? [md`Error: ${val(error)}`] : [],
    };
  }
  return undefined;
}

const METRICS: Record<string, { name: Mrkdwn; amount: (n: number) => Mrkdwn }> = {
  cpu: { name: md`CPU usage`, amount: (n) => md`${n} cores` },
  // The monitor counts memory in bytes (the limit is given in GB and converted).
  ram: { name: md`Memory usage`, amount: (n) => bytes(n) },
  ip: { name: md`IP address usage`, amount: (n) => md`${n} addresses` },
};

function usage(condition: string, d: Record<string, unknown>): ConditionWords | undefined {
  const m = METRICS[condition];
  if (!m) return undefined;
  const percent = num(d.percent, (n) => md`${Math.round(n * 10) / 10}%`);
  const threshold = num(d.threshold, (n) => md`${n}%`);
  return {
    icon: WARN,
    firing: md`${m.name} is at ${percent} of the limit (threshold ${threshold})`,
    resolved: md`${m.name} is back below ${threshold}`,
    short: md`${m.name} at ${percent} (threshold ${threshold})`,
    lines: [md`Used: ${num(d.used, m.amount)} of ${num(d.limit, m.amount)}`],
  };
}

function invoice(condition: string, d: Record<string, unknown>, now: number): ConditionWords | undefined {
  if (!condition.startsWith('invoice:')) return undefined;
  const id = text(d.id) ?? condition.slice('invoice:'.length);
  const i = md`Invoice ${val(`#${id}`)}`;
  const status = text(d.status);
  const shown = status !== undefined ? md` (status ${val(status)})` : md``;
  const facts: Mrkdwn[] = [];
  if (d.amountDue != null) facts.push(md`due ${num(d.amountDue, money)}`);
  if (d.total != null) facts.push(md`total ${num(d.total, money)}`);
  if (typeof d.createdAt === 'string') facts.push(md`issued ${ago(d.createdAt, now)}`);
  return {
    icon: WARN,
    firing: md`${i} is unpaid${shown}`,
    resolved: md`${i} is no longer unpaid`,
    short: md`${i} unpaid${shown}`,
    lines: facts.length ? [join(facts, ' · ')] : [],
  };
}

/** What a condition says; one the views do not know yet is still named, as values. */
export function conditionWords(c: ConditionInput, now: number): ConditionWords {
  const d = c.detail ?? {};
  const known =
    c.kind === 'server'
      ? server(c.resource, c.condition, d)
      : c.kind === 'worker'
        ? worker(c.resource, c.condition, d)
        : c.kind === 'usage'
          ? usage(c.condition, d)
          : c.kind === 'invoices'
            ? invoice(c.condition, d, now)
            : undefined;
  if (known) return known;
  const subject = c.resource ? md`${words(c.kind)} ${val(c.resource)}` : words(c.kind);
  return {
    icon: WARN,
    firing: md`${subject}: ${val(c.condition)}`,
    resolved: md`${subject}: ${val(c.condition)} cleared`,
    short: md`${subject}: ${val(c.condition)}`,
    lines: [],
  };
}
