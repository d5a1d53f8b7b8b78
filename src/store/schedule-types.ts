/**
 * Schedules (issue 25, migration 13): a `/cloud` command run later, as the person who scheduled
 * it, in the channel it was typed in. Its runs are claimed one occurrence at a time.
 */
import { randomBytes } from 'node:crypto';

export type ScheduleStatus = 'pending' | 'active' | 'done' | 'cancelled';
export type ScheduleWhen = { kind: 'cron'; expr: string; tz: string; text: string } | { kind: 'once'; at: number; tz: string; text: string };

export interface ScheduleRecord {
  id: string;
  channelId: string;
  teamId: string | null;
  createdBy: string;
  /** The command as typed between the quotes (no `/cloud`). */
  command: string;
  /** Its catalog entry when scheduled (help and access read the entry again at each run). */
  opId: string;
  when: ScheduleWhen;
  /** `--keep N` of a scheduled backup create. */
  keep: number | null;
  /** pending: waits for the Confirm of `confirmRecord`; done: a one-off that ran (or was skipped). */
  status: ScheduleStatus;
  confirmRecord: string | null;
  /** The next occurrence (epoch ms); null once there is none. */
  nextAt: number | null;
  lastAt: number | null;
  lastResult: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface NewSchedule {
  channelId: string;
  teamId?: string | null;
  createdBy: string;
  command: string;
  opId: string;
  when: ScheduleWhen;
  keep?: number | null;
  status: 'pending' | 'active';
  confirmRecord?: string | null;
  nextAt: number | null;
  now: number;
}

export type RunStatus = 'running' | 'done' | 'skipped';

export interface ScheduleRun {
  scheduleId: string;
  occurrence: number;
  status: RunStatus;
  owner: string;
  leaseUntil: number;
  startedAt: number;
  finishedAt: number | null;
  result: string | null;
}

export interface ScheduleStore {
  add(input: NewSchedule): Promise<ScheduleRecord>;
  get(id: string): Promise<ScheduleRecord | undefined>;
  /** Pending and active schedules of a channel (every channel: undefined), oldest first. */
  list(channelId: string | undefined): Promise<ScheduleRecord[]>;
  /** Moves it from one of `from` to `to` (with a new next run, when given); undefined when it was not in `from`. */
  move(id: string, from: ScheduleStatus[], to: ScheduleStatus, now: number, nextAt?: number | null): Promise<ScheduleRecord | undefined>;
  /** Pending schedules waiting for a Confirm, and active ones whose next run is due by `now`. */
  /** Notes the change-flow record whose Confirm arms a pending schedule. */
  link(id: string, confirmRecord: string, now: number): Promise<ScheduleRecord | undefined>;
  due(now: number, limit: number): Promise<ScheduleRecord[]>;
  pending(limit: number): Promise<ScheduleRecord[]>;
  /**
   * Claims one occurrence for `owner` (status running, leased until now + leaseMs; or skipped):
   * true for exactly one claimer of a (schedule, occurrence), across replicas and restarts.
   */
  claimRun(scheduleId: string, occurrence: number, owner: string, now: number, leaseMs: number, status?: 'running' | 'skipped'): Promise<boolean>;
  /** Moves the next run from `from` to `to` (null with `done`: nothing left); false when another replica already did. */
  advance(id: string, from: number, to: number | null, now: number): Promise<boolean>;
  /** Runs left running past their lease (their replica died), for another to take over. */
  stale(now: number, limit: number): Promise<ScheduleRun[]>;
  /** Takes a stale run over: true for exactly one taker. */
  takeOver(scheduleId: string, occurrence: number, owner: string, now: number, leaseMs: number): Promise<boolean>;
  /** Extends the lease of a run `owner` still holds and is still running: false when it no longer holds it. */
  renew(scheduleId: string, occurrence: number, owner: string, now: number, leaseMs: number): Promise<boolean>;
  /** Ends a run (while `owner` holds it), as done or skipped (nothing started), and notes its result on the schedule. */
  finishRun(scheduleId: string, occurrence: number, owner: string, result: string, now: number, status?: 'done' | 'skipped'): Promise<boolean>;
  runs(scheduleId: string): Promise<ScheduleRun[]>;
}

/** 'sch_' + 10 hex characters (40 bits): short enough to type in `/cloud schedule cancel <id>`. */
export function newScheduleId(): string {
  return `sch_${randomBytes(5).toString('hex')}`;
}

export const SCHEDULE_ID_PATTERN = /^sch_[0-9a-f]{10}$/;
/** Most pending and active schedules one channel may hold. */
export const SCHEDULES_PER_CHANNEL = 50;

export interface ScheduleRow {
  id: string;
  channel_id: string;
  team_id: string | null;
  created_by: string;
  command: string;
  op_id: string;
  when_kind: string;
  when_expr: string;
  when_text: string;
  tz: string;
  keep: number | string | null;
  status: string;
  confirm_record: string | null;
  next_at: number | string | null;
  last_at: number | string | null;
  last_result: string | null;
  created_at: number | string;
  updated_at: number | string;
}

export interface ScheduleRunRow {
  schedule_id: string;
  occurrence: number | string;
  status: string;
  owner: string;
  lease_until: number | string;
  started_at: number | string;
  finished_at: number | string | null;
  result: string | null;
}

// PostgreSQL returns bigint as a string.
const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

export function toSchedule(r: ScheduleRow): ScheduleRecord {
  const when: ScheduleWhen =
    r.when_kind === 'once' ? { kind: 'once', at: Number(r.when_expr), tz: r.tz, text: r.when_text } : { kind: 'cron', expr: r.when_expr, tz: r.tz, text: r.when_text };
  return {
    id: r.id,
    channelId: r.channel_id,
    teamId: r.team_id,
    createdBy: r.created_by,
    command: r.command,
    opId: r.op_id,
    when,
    keep: num(r.keep),
    status: r.status as ScheduleStatus,
    confirmRecord: r.confirm_record,
    nextAt: num(r.next_at),
    lastAt: num(r.last_at),
    lastResult: r.last_result,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export function toRun(r: ScheduleRunRow): ScheduleRun {
  return {
    scheduleId: r.schedule_id,
    occurrence: Number(r.occurrence),
    status: r.status as RunStatus,
    owner: r.owner,
    leaseUntil: Number(r.lease_until),
    startedAt: Number(r.started_at),
    finishedAt: num(r.finished_at),
    result: r.result,
  };
}
