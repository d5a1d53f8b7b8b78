/** The bot's own watches: list them, stop one. They act on the bot, not on the cloud. */
import { z } from 'zod';
import { WATCH_ID_PATTERN } from '../../store/ids.js';
import { buildWatchCancelAnswer, buildWatchList } from '../../views/watch-views.js';
import { defineOperation, positional } from '../define.js';

const watchId = z
  .string()
  .trim()
  .regex(WATCH_ID_PATTERN, { error: 'is not a watch id (see /cloud watch list)' });

export const watchList = defineOperation({
  id: 'watch.list',
  summary: 'Builds and reinstalls the bot is following now',
  tier: 'read',
  args: {},
  async run({ watches }) {
    if (!watches) throw new Error('watches are not available here');
    return (await watches.list()).filter((w) => w.status === 'active' || w.status === 'finalizing' || w.status === 'expired');
  },
  render: (list, _args, view) => buildWatchList(list, view.now),
});

export const watchCancel = defineOperation({
  id: 'watch.cancel',
  summary: 'Stop following a build or reinstall (the work itself goes on)',
  tier: 'change',
  mutates: false,
  ephemeral: true,
  args: { id: positional('watch-id', watchId, 'the watch id from /cloud watch list') },
  async run({ watches, actor }, { id }) {
    if (!watches || !actor) throw new Error('watches are not available here');
    return { id, stopped: !!(await watches.cancel(id, actor.userId)) };
  },
  render: ({ id, stopped }) => buildWatchCancelAnswer(id, stopped),
});
