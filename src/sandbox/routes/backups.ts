/** Backups (spec "Backups"; errors.ts CHOSEN_ERROR_CODES for BACKUP_LOCKED). */
import { created, noContent, notFound, ok, refusal } from '../http.js';
import { newUuid } from '../ids.js';
import { BACKUP_MS } from '../lifecycle.js';
import { paginate } from '../pagination.js';
import type { Route, RouteContext } from '../router.js';
import { backupsOf, findPlan } from '../state.js';
import type { BackupState } from '../state.js';
import { FieldErrors, bodyObject, oneOf, pageParam, str } from '../validate.js';
import { backupView } from '../views.js';
import { assertFree, serverParam } from './servers.js';

const MODES = ['snapshot', 'suspend', 'kill'] as const;
const COMPRESSION = ['none', 'lzo', 'gzip', 'zstd'] as const;

/** Newest first, uuid breaking ties, so pages are stable. */
const newestFirst = (a: BackupState, b: BackupState): number => b.createdAt - a.createdAt || a.uuid.localeCompare(b.uuid);

function create(ctx: RouteContext) {
  const { state } = ctx;
  const s = serverParam(ctx);
  const b = bodyObject(ctx.body);
  const errs = new FieldErrors();
  const name = str(b, 'name', errs, { max: 40 });
  const mode = oneOf(b, 'mode', errs, MODES) ?? 'snapshot';
  const compression = oneOf(b, 'compression_type', errs, COMPRESSION) ?? 'zstd';
  errs.throwIfAny();
  assertFree(s, 'create a backup');
  const list = backupsOf(state, s.id);
  const limit = findPlan(state, s.planId)?.backupLimit ?? 0;
  if (list.length >= limit) {
    throw refusal('RESOURCE_LIMIT_EXCEEDED', `The plan allows ${limit} backups and the server has ${list.length}; delete one first.`, {
      limit,
      used: list.length,
    });
  }
  const ratio = compression === 'none' ? 0.6 : 0.35;
  const backup: BackupState = {
    uuid: newUuid(),
    name: name?.trim() || `${s.name}-${new Date(ctx.now).toISOString().slice(0, 16).replace(/[:T]/g, '-')}`,
    mode,
    compressionType: compression,
    isLocked: false,
    isSuccessful: false,
    size: 0,
    createdAt: ctx.now,
    completedAt: null,
    completesAt: ctx.now + BACKUP_MS,
    finalSize: Math.round(s.disk * ratio),
  };
  list.push(backup);
  return created(backupView(backup));
}

function list(ctx: RouteContext) {
  const s = serverParam(ctx);
  const page = pageParam(ctx.query);
  const sorted = [...backupsOf(ctx.state, s.id)].sort(newestFirst);
  const p = paginate(sorted, page, ctx.perPage);
  return ok(p.data.map(backupView), p.meta);
}

function remove(ctx: RouteContext) {
  const s = serverParam(ctx);
  const list = backupsOf(ctx.state, s.id);
  const uuid = (ctx.params.backup ?? '').toLowerCase();
  const backup = list.find((x) => x.uuid === uuid);
  if (!backup) throw notFound('Backup');
  if (backup.isLocked) throw refusal('BACKUP_LOCKED', `Backup ${backup.name} is locked and cannot be deleted.`, { uuid: backup.uuid });
  list.splice(list.indexOf(backup), 1);
  return noContent();
}

export const backupRoutes: Route[] = [
  { method: 'POST', path: '/servers/:server/backups', handle: create },
  { method: 'GET', path: '/servers/:server/backups', handle: list },
  { method: 'DELETE', path: '/servers/:server/backups/:backup', handle: remove },
];
