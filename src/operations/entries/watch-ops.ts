/** The bot's own watches: list them, stop one. They act on the bot, not on the cloud. */
import { z } from 'zod';
import { WATCH_ID_PATTERN } from '../../store/ids.js';
import { buildWatchCancelAnswer, buildWatchList } from '../../views/watch-views.js';
import { positional, switchFlag, defineBotChange, defineBotRead } from '../define.js';
import { quote } from '../firewall-syntax.js';

const watchId = z
  .string()
  .trim()
  // The message names what was typed (parse-command shows a quoted part as a value).
  .regex(WATCH_ID_PATTERN, { error: (i) => `${quote(String(i.input).slice(0, 40))} is not a watch id (see /cloud watch list)` });

export const watchList = defineBotRead({
  id: 'watch.list',
  summary: 'Builds and reinstalls the bot is following in this channel (`--all`: every channel you may read)',
  args: { all: switchFlag('the watches of every channel you may read, not only this one') },
  async run({ watches, actor }, { all }) {
    if (!watches || !actor) throw new Error('watches are not available here');
    // A channel's own watches by default, as its other lists are; only those the person may read either way.
    const channelId = all ? undefined : actor.channelId;
    const open = (await watches.list(actor.userId, channelId)).filter((w) => w.status === 'active' || w.status === 'finalizing' || w.status === 'expired');
    return { watches: open, channelId };
  },
  render: ({ watches, channelId }, _args, view) =>
    buildWatchList(watches, view.now, { ...(view.namedDefaultAccount ? { showAccounts: true, defaultAccount: view.namedDefaultAccount } : {}), scope: channelId ? { channelId } : 'every channel' }),
});

export const watchCancel = defineBotChange({
  id: 'watch.cancel',
  summary: 'Stop following a build or reinstall (the work itself goes on)',
  args: { id: positional('watch-id', watchId, 'the watch id from /cloud watch list') },
  async run({ watches, actor }, { id }) {
    if (!watches || !actor) throw new Error('watches are not available here');
    return { id, stopped: !!(await watches.cancel(id, actor.userId)) };
  },
  render: ({ id, stopped }) => buildWatchCancelAnswer(id, stopped),
  declined: ({ stopped }) => (stopped ? undefined : 'NOT_FOUND'),
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const WATCH_OPS = [watchList, watchCancel];
