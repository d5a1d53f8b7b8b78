/**
 * The bot's watches as the typed `watch` commands use them (issue 21): each watch belongs to a
 * channel and an account, and is decided there — as the App Home tab lists it and Keep
 * watching resumes it — never only in the channel the command was typed in.
 *
 * - `watch list` shows a watch only to someone who may run the read it polls, in its channel,
 *   on its account (record-access.ts `mayReadRecord`).
 * - `watch cancel` stops one only for someone who could have started it there (the read it
 *   polls, on its account) and whose role there may run `watch cancel`. A refusal is audited
 *   with the rule that refused and answered naming the watch's channel.
 */
import type { Access } from '../access/access.js';
import { mayReadRecord, placeOf } from '../access/record-access.js';
import type { Auditor } from '../domain/audit-entry.js';
import type { Catalog } from '../operations/catalog.js';
import { WATCH_READ } from '../operations/record-reads.js';
import type { WatchControl } from '../operations/types.js';
import type { WatchRecord, WatchStore } from '../store/watch-store.js';
import type { Watcher } from '../watch/watcher.js';
import { buildWatchCancelRefused } from '../views/watch-views.js';
import { guard, RefusedByRecord } from './guard.js';

export interface WatchControlDeps {
  store: Pick<WatchStore, 'listRecent'>;
  watcher: Pick<Watcher, 'get' | 'cancel'>;
  access: Access;
  auditor?: Auditor;
  catalog: Pick<Catalog, 'byId'>;
}

/** Watches looked at for a list (newest first); older ones have long ended. */
const RECENT_WATCHES = 200;

export function createWatchControl(deps: WatchControlDeps): WatchControl {
  const readOf = (w: WatchRecord) => deps.catalog.byId(WATCH_READ[w.kind]);
  return {
    async list(userId, channelId) {
      const recent = (await deps.store.listRecent(RECENT_WATCHES)).filter((w) => channelId === undefined || w.channelId === channelId);
      const shown = await Promise.all(recent.map((w) => mayReadRecord(deps.access, userId, w, [readOf(w)])));
      return recent.filter((_, i) => shown[i]);
    },
    async cancel(id, userId) {
      const w = await deps.watcher.get(id);
      if (!w) return undefined;
      const read = readOf(w);
      const cancelOp = deps.catalog.byId('watch.cancel');
      // Never unchecked: a catalog without these is a bug, answered as one.
      if (!read || !cancelOp) throw new Error(`no read or watch.cancel in the catalog for a ${w.kind} watch`);
      const at = placeOf(deps.access, w);
      const guarded = { access: deps.access, ...(deps.auditor ? { auditor: deps.auditor } : {}) };
      // The read it polls, there and on its account (as starting it took); then the role to stop it there.
      const refused =
        (await guard(guarded, { id: cancelOp.id, command: cancelOp.command, tier: read.tier, scope: read.scope }, userId, at.channelId, { id }, at.account)) ??
        (await guard(guarded, cancelOp, userId, at.channelId, { id }));
      if (refused) throw new RefusedByRecord(buildWatchCancelRefused(id, at.channelId, refused));
      return deps.watcher.cancel(id, userId);
    },
  };
}
