/**
 * How watches read in Slack: thread replies, the final word, the watch's own message, lists.
 * Generic over the kind: what a worker build or a reinstall says (its subject, a state as a
 * line, its final word) is declared with the kind in the catalog (operations/watch-kinds.ts)
 * and arrives here as mrkdwn.
 */
import { CloudApiError } from '../cloud/errors.js';
import type { WatchRecord, WatchUnread } from '../store/watch-store.js';
import type { Block, Reply } from './types.js';
import { actions, button, context, header, lineSections, section } from './blocks.js';
import { channelRef, md, mention, val, type Mrkdwn } from './mrkdwn.js';
import { elapsed, moment, plural } from './format.js';
import { accountValue } from './account-label.js';
import { words } from './words.js';
import { describeCloudError, isRefusal } from './cloud-error-text.js';

export const ACTION_KEEP_WATCHING = 'watch_keep';

/** A kind's final word: one sentence (without its duration), and what only the block adds. */
export interface FinalWords {
  said: Mrkdwn;
  /** Shown in the block only, not in the broadcast text (e.g. who got the new password). */
  more?: Mrkdwn;
}

const since = (from: number, to: number) => words(elapsed(from, to));
/** " (account `prod`)" when messages name accounts; else nothing. */
const onAccount = (account: string | undefined): Mrkdwn => (account !== undefined ? md` (account ${accountValue(account)})` : md``);

/** An intermediate change, for the thread only. `line` is the kind's reading of the state. */
export function buildProgressReply(w: WatchRecord, line: Mrkdwn, now: number): Reply {
  return { text: line, blocks: [section(md`:arrows_counterclockwise: ${line} _(${since(w.startedAt, now)} in)_`)] };
}

/** The end: posted once, as a thread reply (broadcast to the channel when configured). */
export function buildFinalReply(w: WatchRecord, final: FinalWords, outcome: 'succeeded' | 'failed', now: number, account?: string): Reply {
  const on = account !== undefined ? md` on account ${accountValue(account)}` : md``;
  const said = md`${final.said}${on} (after ${since(w.startedAt, now)}).`;
  const icon = outcome === 'succeeded' ? md`:white_check_mark:` : md`:x:`;
  // The text is broadcast to the channel too: built like the block, and it pings nobody.
  return { text: said, blocks: [section(md`${icon} ${said}${final.more ? md` ${final.more}` : md``}`)] };
}

/** `subject`: the kind's name for what was watched ("Worker `api`"). */
export function buildGoneReply(subject: Mrkdwn): Reply {
  const t = md`:ghost: ${subject} no longer exists (the cloud answers “not found”); stopped watching.`;
  return { text: md`The watched resource is gone`, blocks: [section(t)] };
}

/** Why the watch's polls failed, in the words every cloud error gets (cloud-error-text.ts). */
export function unreadWhy(u: WatchUnread): Mrkdwn {
  const t = describeCloudError(new CloudApiError({ status: u.status, code: u.code, message: u.message }));
  // No answer, a 5xx or a rate limit passes by itself, and the watch asks again on its own: a
  // person's "try again in a minute" (or a read's "nothing was changed") would not fit. A refusal
  // (a revoked token, an address not allowed) keeps its next step: someone must act.
  const passing = u.status === 429 || !isRefusal(u);
  return passing ? t.summary : md`${t.summary} ${t.nextStep}`;
}

/** The watch's line while (or after) its polls fail: what it last saw, since when it could not read, and why. */
export function unreadLine(u: WatchUnread, last: Mrkdwn | undefined): Mrkdwn {
  return md`${last ? md`last seen ${last}; ` : md``}not read since ${moment(u.since)}: ${unreadWhy(u)}`;
}

/**
 * `subject` in lower case ("worker `api`"); `last`: the kind's reading of the last state seen.
 * A watch that ended while its polls failed (`w.unread`) says it could not read the state, since
 * when and why — not that the work is still under way, nor that it ended.
 */
export function buildDeadlineReply(w: WatchRecord, subject: Mrkdwn, last: Mrkdwn | undefined, now: number): Reply {
  const said = w.unread
    ? md`:alarm_clock: Stopped watching ${subject} after ${since(w.startedAt, now)}: the bot could not read its state since ${moment(w.unread.since)}${last ? md` (last seen: ${last})` : md``}, so whether it finished is unknown. ${unreadWhy(w.unread)}`
    : md`:alarm_clock: Stopped watching ${subject} after ${since(w.startedAt, now)}.${last ? md` Last seen: ${last}.` : md``}`;
  return {
    text: md`Stopped watching`,
    blocks: [
      section(said),
      actions(`watch:${w.id}`, [button({ text: 'Keep watching', actionId: ACTION_KEEP_WATCHING, value: w.id })]),
    ],
  };
}

export function buildCancelledReply(w: WatchRecord, by: string): Reply {
  return { text: md`Stopped watching`, blocks: [section(md`:no_entry_sign: Stopped watching (cancelled by ${mention(by)}).`)] };
}

const statusWords = (w: WatchRecord, now: number): Mrkdwn => (w.status === 'active' ? md`watching for ${since(w.startedAt, now)}` : words(w.status));

/**
 * The watch's own message when started by hand (`--watch`): the thread's parent, edited in
 * place. `subject` names it as the kind does (a worker by its name once seen); the text keeps
 * the id that was typed.
 */
export function buildWatchMessage(w: WatchRecord, subject: Mrkdwn, line: Mrkdwn, now: number, account?: string): Reply {
  const icon = w.status === 'done' ? (w.outcome === 'succeeded' ? md`:white_check_mark:` : md`:x:`) : w.status === 'active' ? md`:eyes:` : md`:pause_button:`;
  return {
    text: md`${words(w.kind)} ${val(w.resource)}${onAccount(account)}: ${line}`,
    blocks: [
      section(md`${icon} ${subject}${onAccount(account)} — ${line}`),
      context(md`Watch ${val(w.id)} · ${statusWords(w, now)} · started by ${mention(w.requestedBy)} · updates in the thread`),
    ],
  };
}

/** A line added to a change's status message while its watch runs. */
export function buildProgressBlock(w: WatchRecord, line: Mrkdwn, now: number): Block {
  const state =
    w.status === 'active' ? md`watching, ${since(w.startedAt, now)} in` : w.status === 'done' ? md`finished after ${since(w.startedAt, w.updatedAt)}` : words(w.status);
  return context(md`:eyes: ${line} · ${state} · watch ${val(w.id)}`);
}

export interface WatchListOptions {
  /** Name each watch's account (several declared); a record without one is on `defaultAccount`. */
  showAccounts?: boolean;
  defaultAccount?: string;
  /** What the list covers, said with it: this channel's watches (the default), or every channel's, each line naming its own. */
  scope?: { channelId: string } | 'every channel';
}

export function buildWatchList(watches: WatchRecord[], now: number, opts: WatchListOptions = {}): Reply {
  const every = opts.scope === 'every channel';
  const here = typeof opts.scope === 'object' ? opts.scope.channelId : undefined;
  const scope = here !== undefined ? md` in ${channelRef(here)}` : every ? md` you may read` : md``;
  // Says what the list covers, and how to see the rest.
  const more =
    here !== undefined
      ? md`Only the watches in this channel that you may read are listed; \`/cloud watch list --all\` lists every channel's.`
      : every
        ? md`The watches in every channel that you may read are listed.`
        : md``;
  if (watches.length === 0) return { text: md`No active watches${scope}.`, blocks: [section(md`No active watches${scope}.`), ...(opts.scope ? [context(more)] : [])] };
  const accountOf = (w: WatchRecord): Mrkdwn => {
    if (!opts.showAccounts) return md``;
    const name = w.account ?? opts.defaultAccount;
    return name != null ? md` on ${accountValue(name)}` : md` on the default account`;
  };
  const where = (w: WatchRecord): Mrkdwn => (every ? md` in ${channelRef(w.channelId)}` : md``);
  const lines = watches.map(
    (w) =>
      md`• ${val(w.id)} ${words(w.kind)} ${val(w.resource)}${where(w)}${accountOf(w)} · ${words(w.status)} for ${since(w.startedAt, now)} · ${plural(w.polls, md`poll`, md`polls`)} · by ${mention(w.requestedBy)}`,
  );
  return {
    text: md`${plural(watches.length, md`active watch`, md`active watches`)}${scope}`,
    blocks: [header('Active watches'), ...lineSections(lines, 45), context(md`${opts.scope ? md`${more} ` : md``}Stop one with \`/cloud watch cancel &lt;id&gt;\`.`)],
  };
}

/** `--watch` found nothing in progress; `idle` is the kind's word for it ("this worker is not building"). */
export function buildNothingToWatch(idle: Mrkdwn): Reply {
  return { text: md`Nothing to watch`, blocks: [context(md`Nothing to watch: ${idle}.`)] };
}

/** The channel message a watch started by hand hangs its thread from, until the first look. */
export function buildWatchStarting(subject: Mrkdwn, userId: string, account?: string): Reply {
  return {
    text: md`Watching ${subject}${onAccount(account)}`,
    blocks: [section(md`:eyes: Watching ${subject}${onAccount(account)} for ${mention(userId)}: updates in the thread.`)],
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

/**
 * `/cloud watch cancel` refused by the watch's own channel or account: the refusal, and where it
 * was decided (its words about "this channel" are about the watch's).
 */
export function buildWatchCancelRefused(id: string, channelId: string, refusal: Reply): Reply {
  const note = md`Watch ${val(id)} belongs to ${channelRef(channelId)}: stopping it is decided there, on its account.`;
  return { text: md`${note} ${refusal.text}`, blocks: [context(note), ...refusal.blocks] };
}

/** `/cloud watch cancel`: whether a watch was stopped. */
export function buildWatchCancelAnswer(id: string, stopped: boolean): Reply {
  const text = stopped ? md`Stopped watch ${val(id)}; its thread says so.` : md`Watch ${val(id)} is not running (already finished, stopped, or unknown).`;
  return { text, blocks: [section(text)] };
}
