/** How watches read in Slack: thread replies, the final word, the watch's own message, lists. */
import type { WatchRecord } from '../store/watch-store.js';
import type { WatchState } from '../watch/kinds.js';
import type { Block, Reply } from './types.js';
import { actions, button, context, header, lineSections, section } from './blocks.js';
import { hostLink, md, mention, val, type Mrkdwn } from './mrkdwn.js';
import { elapsed } from './format.js';
import { words } from './words.js';

export const ACTION_KEEP_WATCHING = 'watch_keep';

const str = (v: unknown): string | undefined => (v == null || v === '' ? undefined : String(v));

/** "Worker `api`" / "Server `101`": every name and id as a value. */
const subject = (w: Pick<WatchRecord, 'kind' | 'resource'>, state: WatchState | null, capital = true): Mrkdwn => {
  const noun = w.kind === 'worker' ? (capital ? md`Worker` : md`worker`) : capital ? md`Server` : md`server`;
  return md`${noun} ${val(w.kind === 'worker' ? (str(state?.name) ?? w.resource) : w.resource)}`;
};

const since = (from: number, to: number) => words(elapsed(from, to));

/** An intermediate change, for the thread only. `line` describes the cloud's state (outside text). */
export function buildProgressReply(w: WatchRecord, line: string, now: number): Reply {
  return { text: val(line), blocks: [section(md`:arrows_counterclockwise: ${val(line)} _(${since(w.startedAt, now)} in)_`)] };
}

/** The end: posted once, as a thread reply (broadcast to the channel when configured). */
export function buildFinalReply(w: WatchRecord, state: WatchState, outcome: 'succeeded' | 'failed', now: number): Reply {
  const took = since(w.startedAt, now);
  const who = subject(w, state);
  let said: Mrkdwn;
  if (w.kind === 'worker') {
    const fqdn = str(state.fqdn);
    const why = str(state.suspended) ?? str(state.error) ?? str(state.deployment) ?? str(state.status);
    said =
      outcome === 'succeeded'
        ? md`${who} is ${val(str(state.status))}${fqdn ? md` at ${hostLink(fqdn)}` : md``} (after ${took}).`
        : md`${who} did not come up: ${val(why)} (after ${took}).`;
  } else {
    said =
      outcome === 'succeeded'
        ? md`${who} is reinstalled and its credentials are ready (after ${took}).`
        : md`${who} did not finish: ${val(str(state.server_status) ?? 'unknown state')} (after ${took}).`;
  }
  const icon = outcome === 'succeeded' ? md`:white_check_mark:` : md`:x:`;
  const privately = w.kind === 'server' && outcome === 'succeeded' ? md` The new root password went to ${mention(w.requestedBy)} privately.` : md``;
  // The text is broadcast to the channel too: built like the block, and it pings nobody.
  return { text: said, blocks: [section(md`${icon} ${said}${privately}`)] };
}

export function buildGoneReply(w: WatchRecord): Reply {
  const t = md`:ghost: ${subject(w, w.state as WatchState | null)} no longer exists (the cloud answers “not found”); stopped watching.`;
  return { text: md`The watched resource is gone`, blocks: [section(t)] };
}

export function buildDeadlineReply(w: WatchRecord, now: number): Reply {
  const last = w.state ? md` Last seen: ${val(JSON.stringify(w.state))}.` : md``;
  return {
    text: md`Stopped watching`,
    blocks: [
      section(md`:alarm_clock: Stopped watching ${subject(w, w.state as WatchState | null, false)} after ${since(w.startedAt, now)}.${last}`),
      actions(`watch:${w.id}`, [button({ text: 'Keep watching', actionId: ACTION_KEEP_WATCHING, value: w.id })]),
    ],
  };
}

export function buildCancelledReply(w: WatchRecord, by: string): Reply {
  return { text: md`Stopped watching`, blocks: [section(md`:no_entry_sign: Stopped watching (cancelled by ${mention(by)}).`)] };
}

const statusWords = (w: WatchRecord, now: number): Mrkdwn => (w.status === 'active' ? md`watching for ${since(w.startedAt, now)}` : words(w.status));

/** The watch's own message when started by hand (`--watch`): the thread's parent, edited in place. */
export function buildWatchMessage(w: WatchRecord, line: string, now: number): Reply {
  const icon = w.status === 'done' ? (w.outcome === 'succeeded' ? md`:white_check_mark:` : md`:x:`) : w.status === 'active' ? md`:eyes:` : md`:pause_button:`;
  return {
    text: md`${words(w.kind)} ${val(w.resource)}: ${val(line)}`,
    blocks: [
      section(md`${icon} ${subject(w, w.state as WatchState | null)} — ${val(line)}`),
      context(md`Watch ${val(w.id)} · ${statusWords(w, now)} · started by ${mention(w.requestedBy)} · updates in the thread`),
    ],
  };
}

/** A line added to a change's status message while its watch runs. */
export function buildProgressBlock(w: WatchRecord, line: string, now: number): Block {
  const state =
    w.status === 'active' ? md`watching, ${since(w.startedAt, now)} in` : w.status === 'done' ? md`finished after ${since(w.startedAt, w.updatedAt)}` : words(w.status);
  return context(md`:eyes: ${val(line)} · ${state} · watch ${val(w.id)}`);
}

export function buildWatchList(watches: WatchRecord[], now: number): Reply {
  if (watches.length === 0) return { text: md`No active watches.`, blocks: [section(md`No active watches.`)] };
  const lines = watches.map(
    (w) =>
      md`• ${val(w.id)} ${words(w.kind)} ${val(w.resource)} · ${words(w.status)} for ${since(w.startedAt, now)} · ${w.polls} polls · by ${mention(w.requestedBy)}`,
  );
  return {
    text: md`${watches.length} active watches`,
    blocks: [header('Active watches'), ...lineSections(lines, 45), context(md`Stop one with \`/cloud watch cancel &lt;id&gt;\`.`)],
  };
}

/** `--watch` found nothing in progress. */
export function buildNothingToWatch(kind: string): Reply {
  return { text: md`Nothing to watch`, blocks: [context(md`Nothing to watch: this ${words(kind)} is not building or installing.`)] };
}

/** The channel message a watch started by hand hangs its thread from, until the first look. */
export function buildWatchStarting(kind: string, resource: string, userId: string): Reply {
  return {
    text: md`Watching ${words(kind)} ${val(resource)}`,
    blocks: [section(md`:eyes: Watching ${words(kind)} ${val(resource)} for ${mention(userId)}: updates in the thread.`)],
  };
}

/** The private answer to `--watch`: where the watch runs and how to stop it. */
export function buildWatchStarted(watchId: string): Reply {
  return {
    text: md`Watching (watch ${val(watchId)})`,
    blocks: [context(md`:eyes: Watching in the channel as ${val(watchId)}; stop with ${val(`/cloud watch cancel ${watchId}`)}.`)],
  };
}

/** Keep watching: said in the thread when it resumed, privately when there was nothing to resume. */
export function buildWatchingAgain(userId: string): Reply {
  return { text: md`Watching again`, blocks: [section(md`:eyes: Watching again, for ${mention(userId)}.`)] };
}

export function buildNotStopped(): Reply {
  return { text: md`This watch is not stopped any more.`, blocks: [section(md`This watch is not stopped any more.`)] };
}

/** `/cloud watch cancel`: whether a watch was stopped. */
export function buildWatchCancelAnswer(id: string, stopped: boolean): Reply {
  const text = stopped ? md`Stopped watch ${val(id)}; its thread says so.` : md`Watch ${val(id)} is not running (already finished, stopped, or unknown).`;
  return { text, blocks: [section(text)] };
}
