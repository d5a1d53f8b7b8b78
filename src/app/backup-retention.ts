/**
 * `--keep N` of a scheduled backup create (issue 25): once the run's new backup has finished,
 * unlocked backups of this schedule older than its newest N (locked ones count among those N)
 * are deleted, the
 * oldest first — never a locked one, never the last one, never the new one, and never more than
 * the run made room for (one per backup it made; none when it already deleted one so that the
 * plan's backup_limit would take the new one). A backup that failed, or was not seen to finish,
 * deletes nothing. Only backups the schedule made count and may go: a backup taken by hand or by
 * another schedule of the same server is never deleted nor counted. Which ones it made is read
 * from its runs' own records (the uuid the cloud answered), not from names, which anyone may
 * give. Each deletion is a `backup delete` run through runCommand as the schedule's
 * creator: its own status message and audit entry.
 * Its dedupe key names the occurrence: a run taken over sends no delete twice, while a delete
 * that failed is tried again by the next run.
 */
import type { Backup } from '../cloud-api/schemas.js';
import type { StartOutcome } from '../confirm/change-types.js';
import type { ScheduleRecord } from '../store/schedule-types.js';
import type { OperationRecord, OperationStore } from '../store/types.js';
import { section } from '../views/blocks.js';
import { md, val, type Mrkdwn } from '../views/mrkdwn.js';
import type { Reply } from '../views/types.js';
import { runCommand, type CommandCoreDeps } from './run-command.js';
import { resolveNames } from './resolve-names.js';

export interface RetentionDeps extends CommandCoreDeps {
  schedule: ScheduleRecord;
  /** The run's occurrence (epoch ms): each delete is keyed by it. */
  occurrence: number;
  account: string;
  args: Record<string, unknown>;
  /** The scheduler stopping: the wait for the new backup ends (the run's lease then runs out). */
  signal?: AbortSignal;
  backupPollMs?: number;
  /** The records of the schedule's runs: which backups it made. */
  operations: Pick<OperationStore, 'listDuring'>;
}

/** How often, and how long, the run looks for its new backup to finish. */
export const BACKUP_POLL_MS = 15_000;
export const BACKUP_WAIT_MS = 30 * 60_000;

/** When a backup was made; one the cloud gives no readable time for counts as newest, so it is never the first to go. */
const madeAt = (b: Backup): number => {
  const t = Date.parse(b.created_at ?? '');
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
};

/** Oldest first, by uuid where the times are equal (or both unknown): the same order on every replica. */
export const oldestFirst = (a: Backup, b: Backup): number => {
  const [x, y] = [madeAt(a), madeAt(b)];
  return x === y ? a.uuid.localeCompare(b.uuid) : x < y ? -1 : 1;
};

async function serverId(r: RetentionDeps): Promise<string | undefined> {
  const op = r.catalog.byId('backup.create');
  if (!op) return undefined;
  const resolved = await resolveNames(r.known, op, r.args, r.account);
  return resolved.ok ? String(resolved.args.server) : undefined;
}

async function backups(r: RetentionDeps, server: string): Promise<Backup[]> {
  const out: Backup[] = [];
  for await (const b of r.accounts.client(r.account).backups.all(server, {})) out.push(b);
  return out.sort(oldestFirst);
}

/** The uuid of the backup a backup create's record says the cloud made. */
function madeBy(record: OperationRecord | undefined): string | undefined {
  const out = (record?.result?.outputs as { backup_uuid?: unknown } | undefined)?.backup_uuid;
  if (typeof out === 'string') return out;
  return record?.result?.text ? /\(`?([0-9a-f-]{36})`?\)/.exec(String(record.result.text))?.[1] : undefined;
}

const DAY_MS = 86_400_000;

/**
 * The backups of `all` this schedule made: those its runs' backup creates succeeded with, read
 * from the channel's records since the oldest listed backup (a day's margin for the cloud's clock).
 */
async function ownBackups(r: RetentionDeps, all: Backup[]): Promise<Backup[]> {
  const s = r.schedule;
  const oldest = Math.min(...all.map((b) => Date.parse(b.created_at ?? '')).filter((t) => Number.isFinite(t)));
  let from = Math.max(s.createdAt, Number.isFinite(oldest) ? Math.trunc(oldest) - DAY_MS : s.createdAt);
  const until = r.clock.now();
  const made = new Set<string>();
  const seen = new Set<string>();
  for (let pages = 0; pages < 1000 && from <= until; pages++) {
    const page = await r.operations.listDuring({ channelId: s.channelId, from, until, limit: 1000 });
    for (const o of page) {
      if (seen.has(o.id)) continue;
      seen.add(o.id);
      if (o.opId !== 'backup.create' || o.status !== 'succeeded' || (o.facts.scheduled as { id?: unknown } | undefined)?.id !== s.id) continue;
      const uuid = madeBy(o);
      if (uuid) made.add(uuid.toLowerCase());
    }
    if (page.length < 1000) break;
    const last = page[page.length - 1]!.createdAt;
    from = last > from ? last : from + 1;
  }
  return all.filter((b) => made.has(b.uuid.toLowerCase()));
}

/** What came of one delete: done, or why not (for the run's result). */
type Removal = { ok: true } | { ok: false; why: string };

function removal(o: StartOutcome | undefined): Removal {
  if (o?.kind === 'posted') return o.record.status === 'succeeded' ? { ok: true } : { ok: false, why: o.record.errorCode ? `${o.record.status}: ${o.record.errorCode}` : o.record.status };
  if (o?.kind === 'duplicate') return { ok: false, why: `already tried by a run that stopped${o.record ? `: ${o.record.status}` : ''}` };
  return { ok: false, why: o ? 'refused before sending' : 'not started' };
}

/** Deletes one backup through the change flow, as the schedule's creator. */
async function remove(r: RetentionDeps, server: string, b: Backup, why: string): Promise<Removal> {
  let outcome: StartOutcome | undefined;
  const s = r.schedule;
  await runCommand(r, {
    userId: s.createdBy,
    channelId: s.channelId,
    teamId: s.teamId ?? '',
    triggerId: `sched:${s.id}:${r.occurrence}:${why}:${b.uuid}`,
    // On the account the run's backups were made on (its `--account`), not the channel's own.
    text: `backup delete ${server} ${b.uuid} --account ${r.account}`,
    scheduled: { run: { scheduleId: s.id, confirmedBy: s.createdBy }, started: (o) => void (outcome = o) },
  });
  return removal(outcome);
}

const say = (text: Mrkdwn): Reply => ({ text, blocks: [section(text)] });

/**
 * The plan refused the new backup (backup_limit): delete the oldest unlocked one first, but only
 * when `--keep` would have deleted it after this run anyway (beyond the newest `keep`).
 * The Cloud API cannot tell the limit beforehand (a server does not name its plan; the backup
 * list's meta is pagination only), so the refusal is how the run learns it: the refused
 * attempt's status message (`refused`) is re-edited to say what the run does about it rather
 * than standing as a failed change. `reply` is for the channel when nothing came of it.
 */
export async function makeRoom(r: RetentionDeps, keep: number, refused: string | undefined): Promise<{ deleted: boolean; reply?: Reply; note: string }> {
  const server = await serverId(r);
  if (!server) return { deleted: false, reply: say(md`The plan’s backup limit is reached and the server could not be named again; nothing was deleted.`), note: 'nothing deleted' };
  const all = await backups(r, server);
  const own = await ownBackups(r, all);
  // Beyond the newest `keep` of its own good ones once the new backup is made (locked ones count
  // among the newest; a failed one counts for nothing, as after a backup).
  const good = own.filter((b) => b.is_successful === true);
  const beyond = good.slice(0, Math.max(0, good.length + 1 - keep));
  const oldest = all.length < 2 ? undefined : beyond.find((b) => !b.is_locked);
  if (!oldest) {
    const why = !own.length
      ? md`none of them was made by this schedule (it deletes only its own)`
      : !beyond.length
        ? md`${val(`--keep ${keep}`)} keeps all ${good.length} good backups of this schedule’s`
        : all.length < 2
          ? md`the only backup is never deleted`
          : md`${val(`--keep ${keep}`)} would delete only locked ones`;
    return {
      deleted: false,
      reply: say(md`Server ${val(server)} has ${all.length} backups, its plan’s limit, and ${why}: nothing was deleted and no backup was made. Delete one by hand, or raise the limit.`),
      note: 'limit reached; nothing deleted',
    };
  }
  if (refused) {
    await r.flow.retell(refused, md`backup limit reached; removing the oldest unlocked backup ${val(oldest.name ?? oldest.uuid)} (${val(oldest.uuid)}) and trying again, as ${val(`--keep ${keep}`)} allows`);
  }
  const deleted = (await remove(r, server, oldest, 'room')).ok;
  if (deleted) return { deleted, note: 'made room' };
  // The retry will not happen: the refused attempt reads as the failure it is again.
  if (refused) await r.flow.retell(refused, undefined);
  return {
    deleted,
    reply: say(md`The plan’s backup limit was reached and deleting the oldest backup ${val(oldest.uuid)} did not succeed: no backup was made.`),
    note: 'could not make room',
  };
}

/** After the run's backup: waits for it to finish, then keeps the newest `keep` (deleting at most `room`). */
export async function keepNewest(r: RetentionDeps, keep: number, room: number, record: OperationRecord | undefined): Promise<{ reply?: Reply; note: string }> {
  if (room <= 0) return { note: 'nothing more deleted (room made before)' };
  const server = await serverId(r);
  const made = madeBy(record);
  if (!server || !made) return { note: 'nothing deleted (the new backup was not named)' };
  const deadline = r.clock.now() + BACKUP_WAIT_MS;
  let all = await backups(r, server);
  // The watch of the new backup: listed until it is complete, or gone, or too long.
  for (;;) {
    const fresh = all.find((b) => b.uuid === made);
    if (!fresh) return { reply: say(md`The new backup ${val(made)} of server ${val(server)} is gone: nothing was deleted.`), note: 'backup gone; nothing deleted' };
    if (fresh.is_successful) break;
    // Completed without success is the spec's failed backup: said so now, not after the deadline.
    if (fresh.completed_at) return { reply: say(md`The new backup ${val(made)} of server ${val(server)} failed (the cloud lists it completed, not successful): nothing was deleted.`), note: 'backup failed; nothing deleted' };
    if (r.clock.now() >= deadline) return { reply: say(md`The new backup ${val(made)} of server ${val(server)} did not finish in time: nothing was deleted.`), note: 'backup not finished; nothing deleted' };
    await r.clock.sleep(r.backupPollMs ?? BACKUP_POLL_MS, r.signal);
    all = await backups(r, server);
  }
  // The newest `keep` of its own stay, locked ones among them (README): only an unlocked one beyond them goes.
  const own = await ownBackups(r, all);
  if (!own.some((b) => b.uuid === made)) own.push(all.find((b) => b.uuid === made)!);
  // Only a backup the cloud lists successful counts among the newest `keep`: a failed one (or
  // one still being taken) restores nothing, so a good one is never deleted to make up for it.
  const good = own.sort(oldestFirst).filter((b) => b.is_successful === true);
  const beyond = good.slice(0, Math.max(0, Math.min(good.length - keep, good.length - 1)));
  const victims = beyond.filter((b) => !b.is_locked && b.uuid !== made).slice(0, room);
  let deleted = 0;
  const failed: string[] = [];
  for (const b of victims) {
    const done = await remove(r, server, b, 'keep');
    if (done.ok) deleted++;
    else failed.push(`could not delete old backup ${b.uuid} (${done.why})`);
  }
  const notes = [...(deleted ? [`deleted ${deleted} old backup${deleted === 1 ? '' : 's'}`] : []), ...failed];
  return { note: notes.length ? notes.join('; ') : beyond.length ? 'nothing to delete (the older ones are locked)' : 'nothing to delete' };
}
