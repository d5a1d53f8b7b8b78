/**
 * One audit entry from what happened. Every path that audits — a read run, a refusal at the
 * door or before asking, each move of a change — builds its entry here, so arguments are
 * always masked and a change's entry always carries who confirmed, its record and the request.
 */
import { isSecretArg, maskedArgs } from '../access/secrets.js';
import type { AnyOperation } from '../operations/types.js';
import type { CloudRequest } from '../domain/cloud-request.js';
import type { OperationRecord } from '../store/types.js';
import type { AuditOutcome, NewAuditEntry } from '../domain/audit-entry.js';

export interface AuditInput {
  /** The catalog entry (or, for a button outside the catalog, its id and tier). */
  op: Pick<AnyOperation, 'id' | 'tier'> & Partial<Pick<AnyOperation, 'change' | 'args'>>;
  userId: string;
  channelId: string | null | undefined;
  /** As given: secret arguments are masked here, and an argument whose spec says how it is audited is shown so. */
  args: Record<string, unknown>;
  outcome: AuditOutcome;
  /** A change's record: its id, who confirmed and approved, its error code and duration. */
  record?: OperationRecord;
  /** The change's request (secrets masked): the entry's detail unless one is given. */
  request?: CloudRequest;
  errorCode?: string | null;
  durationMs?: number | null;
  detail?: string | null;
  /** The named cloud account; left out, the record's (else null: the default account). */
  account?: string | null;
}

export function auditEntry(input: AuditInput): NewAuditEntry {
  const { op, record: r, request } = input;
  return {
    userId: input.userId,
    channelId: input.channelId ?? null,
    opId: op.id,
    tier: op.tier,
    args: auditedArgs(op, input.args),
    outcome: input.outcome,
    errorCode: input.errorCode ?? r?.errorCode ?? null,
    confirmedBy: r?.confirmedBy ?? null,
    approvedBy: r?.approvedBy ?? null,
    operationId: r?.id ?? null,
    durationMs: input.durationMs ?? (r?.finishedAt ? r.finishedAt - (r.confirmedAt ?? r.createdAt) : null),
    detail: viaWorkflow(scheduledBy(r, input.detail ?? (request ? `${request.method} ${request.path}` : null)), r),
    account: input.account !== undefined ? input.account : (r?.account ?? null),
  };
}

/** Secrets masked; then each argument whose spec declares how it is audited (what was typed) shown that way. */
function auditedArgs(op: AuditInput['op'], args: Record<string, unknown>): Record<string, unknown> {
  const masked = maskedArgs(op, args);
  for (const [name, value] of Object.entries(masked)) {
    const spec = op.args?.[name];
    if (spec?.audited && !isSecretArg(op, name)) masked[name] = spec.audited(value);
  }
  return masked;
}

/** A schedule's run (issue 25) is audited as "scheduled by …" with its schedule, before the usual detail. */
function scheduledBy(r: OperationRecord | undefined, detail: string | null): string | null {
  const s = r?.facts?.scheduled as { id?: unknown; by?: unknown } | undefined;
  if (!s || typeof s.id !== 'string' || typeof s.by !== 'string') return detail;
  return `scheduled by ${s.by} (schedule ${s.id})${detail ? `: ${detail}` : ''}`;
}

/** A change a workflow step started says so in every entry (the record's facts name the workflow). */
function viaWorkflow(detail: string | null, r: OperationRecord | undefined): string | null {
  const via = r?.facts.via;
  if (typeof via !== 'string' || !via) return detail;
  return detail ? `${detail} (${via})` : via;
}
