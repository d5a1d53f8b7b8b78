/**
 * Workflow steps under way (migration 12, issue 23), keyed by Slack's function_execution_id.
 * `begin` inserts once: a retried function_executed, or the same delivery on another replica,
 * finds the row taken. A step's one completion is claimed (running → completing, the outcome
 * stored with the claim) before Slack hears it, and marked done after; replicas share the rows
 * through leases, as watches do, so a dead replica's step is resumed by another.
 */
import type { Updateable } from 'kysely';
import { prepareClaimDue } from './claim-row.js';
import { bound, type P, type Sql } from './dialect.js';
import { assertInteger, assertText } from './operation-rows.js';
import type { StepRow } from './step-row.js';
import type { Tables } from './tables.js';

/** running: waiting (a click, a watch, the cloud); completing: outcome claimed, Slack not yet told; done. */
export type StepStatus = 'running' | 'completing' | 'done';

export interface StepRecord {
  executionId: string;
  callbackId: string;
  /** The workflow execution it belongs to (audit entries name it). */
  workflow: string | null;
  channelId: string | null;
  requestedBy: string | null;
  inputs: Record<string, unknown>;
  status: StepStatus;
  /** The change it started, once started. */
  operationId: string | null;
  outcome: 'success' | 'error' | null;
  outputs: Record<string, unknown> | null;
  error: string | null;
  createdAt: number;
  updatedAt: number;
  nextCheckAt: number;
  leaseOwner: string | null;
  leaseUntil: number | null;
}

export interface NewStep {
  executionId: string;
  callbackId: string;
  workflow?: string | null;
  channelId?: string | null;
  requestedBy?: string | null;
  inputs: Record<string, unknown>;
}

export type StepOutcome = { outcome: 'success'; outputs: Record<string, unknown> } | { outcome: 'error'; error: string };

export interface StepStore {
  /** Inserts the step leased to `owner`; `created: false` when its execution id is taken already. */
  begin(input: NewStep, owner: string, now: number, leaseMs: number): Promise<{ created: boolean; record: StepRecord }>;
  get(executionId: string): Promise<StepRecord | undefined>;
  /** Leases up to `limit` unfinished steps due by `now` (lease free, expired or `owner`'s) to `owner`. */
  claimDue(owner: string, now: number, leaseMs: number, limit: number): Promise<StepRecord[]>;
  /** Records the change a running step started; only while `owner` holds it. */
  setOperation(executionId: string, operationId: string, owner: string, now: number): Promise<StepRecord | undefined>;
  /** Lets go of a running step until `nextCheckAt` (still waiting). */
  later(executionId: string, owner: string, now: number, nextCheckAt: number): Promise<StepRecord | undefined>;
  /** Claims the one completion: running → completing with its outcome; undefined if another did. */
  settle(executionId: string, owner: string, now: number, outcome: StepOutcome, leaseMs: number): Promise<StepRecord | undefined>;
  /** completing → done, once Slack heard it (or said the execution is over). */
  done(executionId: string, owner: string, now: number): Promise<StepRecord | undefined>;
}



const num = (v: unknown) => Number(v);

function toRecord(r: StepRow): StepRecord {
  const json = (v: string | null) => (v === null ? null : typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown> | null;
  return {
    executionId: r.execution_id,
    callbackId: r.callback_id,
    workflow: r.workflow,
    channelId: r.channel_id,
    requestedBy: r.requested_by,
    inputs: json(r.inputs) ?? {},
    status: r.status as StepStatus,
    operationId: r.operation_id,
    outcome: r.outcome as StepRecord['outcome'],
    outputs: json(r.outputs),
    error: r.error,
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
    nextCheckAt: num(r.next_check_at),
    leaseOwner: r.lease_owner,
    leaseUntil: r.lease_until === null ? null : num(r.lease_until),
  };
}

/** Slack's ids are short; anything longer is not one. */
const ID_MAX = 200;

export function createStepStore(sql: Sql): StepStore {
  const insert = sql.prepare((k, p) =>
    k
      .insertInto('steps')
      .values({
        ...bound(p, ['execution_id', 'callback_id', 'workflow', 'channel_id', 'requested_by', 'inputs', 'lease_owner', 'lease_until']),
        status: 'running',
        created_at: p('now'),
        updated_at: p('now'),
        // Not due while its lease lasts: a driver pass on this replica (which may claim rows it
        // holds) must not start it a second time while `runStep` is still starting it.
        next_check_at: p('lease_until'),
      })
      .onConflict((oc) => oc.column('execution_id').doNothing())
      .returningAll(),
  );
  const byId = sql.prepare((k, p) => k.selectFrom('steps').selectAll().where('execution_id', '=', p('id')));
  const claim = prepareClaimDue(sql, { table: 'steps', key: 'execution_id', statuses: ['running', 'completing'], due: 'next_check_at', order: ['next_check_at', 'created_at'] });
  // Every move names its holder: a replica whose lease was taken over writes nothing.
  const move = (from: StepStatus, set: (p: P) => Updateable<Tables['steps']>) =>
    sql.prepare((k, p) =>
      k
        .updateTable('steps')
        .set({ ...set(p), updated_at: p('now') })
        .where('execution_id', '=', p('id'))
        .where('status', '=', from)
        .where('lease_owner', '=', p('owner'))
        .returningAll(),
    );
  const setOp = move('running', (p) => ({ operation_id: p('op') }));
  const later = move('running', (p) => ({ next_check_at: p('next'), lease_owner: null, lease_until: null }));
  const settle = move('running', (p) => ({
    status: 'completing',
    outcome: p('outcome'),
    outputs: p('outputs'),
    error: p('error'),
    // As at `begin`: not due while its lease lasts, so a pass of this replica's driver (which
    // may claim rows it holds) does not tell Slack a second time while `tell` is still telling.
    next_check_at: p('until'),
    lease_until: p('until'),
  }));
  const finish = move('completing', () => ({ status: 'done', lease_owner: null, lease_until: null }));
  const check = (id: string, now: number) => {
    assertText(id, 'executionId');
    if (id.length > ID_MAX) throw new TypeError(`executionId must be at most ${ID_MAX} characters`);
    assertInteger(now, 'now');
  };
  const one = async (q: Parameters<Sql['one']>[0], params: Record<string, unknown>) => {
    const row = await sql.one<StepRow>(q, params);
    return row ? toRecord(row) : undefined;
  };

  return {
    async begin(input, owner, now, leaseMs) {
      check(input.executionId, now);
      const row = await sql.one<StepRow>(insert, {
        execution_id: input.executionId,
        callback_id: input.callbackId,
        workflow: input.workflow ?? null,
        channel_id: input.channelId ?? null,
        requested_by: input.requestedBy ?? null,
        inputs: JSON.stringify(input.inputs),
        now,
        lease_owner: owner,
        lease_until: now + leaseMs,
      });
      if (row) return { created: true, record: toRecord(row) };
      const existing = await one(byId, { id: input.executionId });
      return { created: false, record: existing! };
    },
    get: (executionId) => one(byId, { id: executionId }),
    async claimDue(owner, now, leaseMs, limit) {
      const rows = await sql.all<StepRow>(claim, { owner, now, until: now + leaseMs, limit: Math.max(0, Math.trunc(limit)) });
      return rows.map(toRecord).sort((a, b) => a.createdAt - b.createdAt);
    },
    setOperation: (id, operationId, owner, now) => one(setOp, { id, op: operationId, owner, now }),
    later: (id, owner, now, nextCheckAt) => one(later, { id, owner, now, next: nextCheckAt }),
    settle: (id, owner, now, o, leaseMs) =>
      one(settle, {
        id,
        owner,
        now,
        until: now + leaseMs,
        outcome: o.outcome,
        outputs: o.outcome === 'success' ? JSON.stringify(o.outputs) : null,
        error: o.outcome === 'error' ? o.error : null,
      }),
    done: (id, owner, now) => one(finish, { id, owner, now }),
  };
}
