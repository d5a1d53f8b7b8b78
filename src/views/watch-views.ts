/** How watches read in Slack: thread replies, the final word, the watch's own message, lists. */
import type { Block, Reply } from '../operations/types.js';
import type { WatchRecord } from '../store/watch-store.js';
import type { WatchState } from '../watch/kinds.js';
import { actions, button, code, context, esc, header, lineSections, section } from './blocks.js';
import { elapsed } from './format.js';

export const ACTION_KEEP_WATCHING = 'watch_keep';

const subject = (w: Pick<WatchRecord, 'kind' | 'resource'>, state: WatchState | null) =>
  w.kind === 'worker'
    ? `Worker ${state?.name ? `*${esc(String(state.name))}*` : code(w.resource)}`
    : `Server ${code(w.resource)}`;

/** An intermediate change, for the thread only. */
export function buildProgressReply(w: WatchRecord, line: string, now: number): Reply {
  const t = `:arrows_counterclockwise: ${esc(line)} _(${elapsed(w.startedAt, now)} in)_`;
  return { text: line, blocks: [section(t)] };
}

/** The end: posted once, as a thread reply (broadcast to the channel when configured). */
export function buildFinalReply(w: WatchRecord, state: WatchState, outcome: 'succeeded' | 'failed', now: number): Reply {
  const took = elapsed(w.startedAt, now);
  const name = w.kind === 'worker' ? `Worker ${state.name ? String(state.name) : w.resource}` : `Server ${w.resource}`;
  let rich: string;
  let plain: string;
  if (w.kind === 'worker') {
    const fqdn = state.fqdn ? String(state.fqdn) : undefined;
    const why = String(state.suspended ?? state.error ?? state.deployment ?? state.status);
    rich =
      outcome === 'succeeded'
        ? `:white_check_mark: ${subject(w, state)} is ${esc(String(state.status))}${fqdn ? ` at <https://${esc(fqdn)}|${esc(fqdn)}>` : ''} (after ${took}).`
        : `:x: ${subject(w, state)} did not come up: ${esc(why)} (after ${took}).`;
    plain = outcome === 'succeeded' ? `${name} is ${String(state.status)}${fqdn ? ` at ${fqdn}` : ''} (after ${took}).` : `${name} did not come up: ${why} (after ${took}).`;
  } else {
    rich =
      outcome === 'succeeded'
        ? `:white_check_mark: ${subject(w, state)} is reinstalled and its credentials are ready (after ${took}). The new root password went to <@${w.requestedBy}> privately.`
        : `:x: ${subject(w, state)} did not finish: ${esc(String(state.server_status ?? 'unknown state'))} (after ${took}).`;
    plain = outcome === 'succeeded' ? `${name} is reinstalled and its credentials are ready (after ${took}).` : `${name} did not finish (after ${took}).`;
  }
  return { text: plain, blocks: [section(rich)] };
}

export function buildGoneReply(w: WatchRecord): Reply {
  const t = `:ghost: ${subject(w, w.state as WatchState | null)} no longer exists (the cloud answers “not found”); stopped watching.`;
  return { text: 'The watched resource is gone', blocks: [section(t)] };
}

export function buildDeadlineReply(w: WatchRecord, now: number): Reply {
  const last = w.state ? ` Last seen: ${esc(JSON.stringify(w.state))}.` : '';
  return {
    text: 'Stopped watching',
    blocks: [
      section(`:alarm_clock: Stopped watching ${subject(w, w.state as WatchState | null).toLowerCase()} after ${elapsed(w.startedAt, now)}.${last}`),
      actions(`watch:${w.id}`, [button({ text: 'Keep watching', actionId: ACTION_KEEP_WATCHING, value: w.id })]),
    ],
  };
}

export function buildCancelledReply(w: WatchRecord, by: string): Reply {
  return { text: 'Stopped watching', blocks: [section(`:no_entry_sign: Stopped watching (cancelled by <@${by}>).`)] };
}

/** The watch's own message when started by hand (`--watch`): the thread's parent, edited in place. */
export function buildWatchMessage(w: WatchRecord, line: string, now: number): Reply {
  const icon = w.status === 'done' ? (w.outcome === 'succeeded' ? ':white_check_mark:' : ':x:') : w.status === 'active' ? ':eyes:' : ':pause_button:';
  const state = w.status === 'active' ? `watching for ${elapsed(w.startedAt, now)}` : w.status;
  return {
    text: `${w.kind} ${w.resource}: ${line}`,
    blocks: [
      section(`${icon} ${subject(w, w.state as WatchState | null)} — ${esc(line)}`),
      context(`Watch ${code(w.id)} · ${state} · started by <@${w.requestedBy}> · updates in the thread`),
    ],
  };
}

/** A line added to a change's status message while its watch runs. */
export function buildProgressBlock(w: WatchRecord, line: string, now: number): Block {
  const state = w.status === 'active' ? `watching, ${elapsed(w.startedAt, now)} in` : w.status === 'done' ? `finished after ${elapsed(w.startedAt, w.updatedAt)}` : w.status;
  return context(`:eyes: ${esc(line)} · ${state} · watch ${code(w.id)}`);
}

export function buildWatchList(watches: WatchRecord[], now: number): Reply {
  if (watches.length === 0) return { text: 'No active watches.', blocks: [section('No active watches.')] };
  const lines = watches.map(
    (w) => `• ${code(w.id)} ${w.kind} ${code(w.resource)} · ${w.status} for ${elapsed(w.startedAt, now)} · ${w.polls} polls · by <@${w.requestedBy}>`,
  );
  return { text: `${watches.length} active watches`, blocks: [header('Active watches'), ...lineSections(lines, 45), context('Stop one with `/cloud watch cancel <id>`.')] };
}
