/**
 * A change's status message as a view of its record: the catalog entry's words for it, the
 * request stored with the record when it was made (never described again here: describing runs
 * the change against a recording client), and the cloud's error in words. The change flow and
 * a watch's parent message both render with it; neither reaches the cloud client to do so.
 */
import type { CloudRequest } from '../domain/cloud-request.js';
import type { OperationRecord } from '../store/types.js';
import { describeCloudError, type LookedUp } from './cloud-error-text.js';
import { recordFailure } from './record-failure.js';
import type { Mrkdwn } from './mrkdwn.js';
import { buildStatusMessage, type SuccessLook } from './status-views.js';
import type { Reply } from './types.js';

export interface RenderOptions {
  /** The operation waits for a second admin's approval rather than a Confirm. */
  approval?: boolean;
  /** The account to name (several accounts declared). */
  account?: string;
  /** A watch follows the work the change started: the heading's word until it ends ("building"). */
  underway?: Mrkdwn;
  /** What the change looked up by id (operations/looked-up.ts), so a NOT_FOUND names it. */
  lookedUp?: LookedUp[];
  /** A failure the bot is handling (ChangeFlow.retell): its words instead of "failed". */
  handling?: Mrkdwn;
}

/**
 * What the status message reads of a change's catalog entry (operations/types.ts ChangeSpec has
 * these): the catalog sits above the views and hands its entry in.
 */
export interface ChangeWords {
  confirm: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  describe(args: any, facts: Record<string, unknown>): { title: Mrkdwn; lines: Mrkdwn[] };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  typeToConfirm?(args: any, facts: Record<string, unknown>): string | undefined;
  syncGroup?: unknown;
  succeededAs?(outputs: Record<string, string | number>): SuccessLook | undefined;
}

/** How a succeeded record is headed when its entry says success is not "done" (from its stored outputs); else undefined. */
export function successLook(op: { change?: Pick<ChangeWords, 'succeededAs'> | undefined } | undefined, record: Pick<OperationRecord, 'status' | 'result'>): SuccessLook | undefined {
  if (record.status !== 'succeeded' || !op?.change?.succeededAs) return undefined;
  return op.change.succeededAs((record.result?.outputs as Record<string, string | number> | undefined) ?? {});
}

const METHODS = new Set<unknown>(['POST', 'PATCH', 'DELETE'] satisfies CloudRequest['method'][]);

/**
 * The request stored in the record's facts when it was made (secrets masked), or undefined for
 * a record made before requests were stored: its message then has no "sent …" line.
 */
export function storedRequest(record: Pick<OperationRecord, 'facts'>): CloudRequest | undefined {
  const r = record.facts.request as { method?: unknown; path?: unknown; body?: unknown } | undefined;
  if (!r || !METHODS.has(r.method) || typeof r.path !== 'string') return undefined;
  const body = r.body !== null && typeof r.body === 'object' && !Array.isArray(r.body) ? { body: r.body as Record<string, unknown> } : {};
  return { method: r.method as CloudRequest['method'], path: r.path, ...body };
}

/** Facts with the change's (masked) request added, to be stored when the record is made. */
export function withStoredRequest(facts: Record<string, unknown>, request: CloudRequest): Record<string, unknown> {
  return { ...facts, request };
}

/** The deploy a Retry sync sent after the change's own request (confirm/upkeep.ts records it). */
function retriedRequest(record: OperationRecord): CloudRequest | undefined {
  const r = record.result?.retried as { method?: unknown; path?: unknown } | undefined;
  return r && r.method === 'POST' && typeof r.path === 'string' ? { method: 'POST', path: r.path } : undefined;
}

/**
 * Whether the record's firewall change is saved in the cloud but not known to be synced to every
 * node: the cloud said so (HYPERVISOR_SYNC_FAILED), or a Retry sync's deploy since then did not
 * go through (confirm/upkeep.ts keeps `syncPending` then, whatever the deploy's own error).
 */
export function syncPending(record: Pick<OperationRecord, 'status' | 'errorCode' | 'result'>): boolean {
  return record.status === 'failed' && (record.errorCode === 'HYPERVISOR_SYNC_FAILED' || record.result?.syncPending === true);
}

/** The status message of a change's record: a pure function of the record and its catalog entry's words. */
export function renderStatus(op: { change?: ChangeWords | undefined }, record: OperationRecord, now: number, options: RenderOptions = {}): Reply {
  const change = op.change!;
  const described = change.describe(record.args as never, record.facts);
  const failure = recordFailure(record, now);
  const error = failure ? describeCloudError(failure, { mutation: true, lookedUp: options.lookedUp ?? [], saved: syncPending(record) }) : undefined;
  const typed = change.typeToConfirm?.(record.args as never, record.facts);
  const look = successLook(op, record);
  const request = storedRequest(record);
  const retried = retriedRequest(record);
  return buildStatusMessage({
    record,
    title: described.title,
    lines: described.lines,
    ...(request ? { request } : {}),
    ...(retried ? { retried } : {}),
    // A workflow step's change always waits for a person (the flow stored `askFirst`).
    needsConfirm: change.confirm || !!options.approval || record.facts.askFirst === true,
    approval: !!options.approval,
    ...(options.account ? { account: options.account } : {}),
    ...(typed ? { typeToConfirm: typed } : {}),
    ...(error ? { error } : {}),
    retrySync: syncPending(record) && !!change.syncGroup,
    ...(options.underway ? { underway: options.underway } : {}),
    ...(look ? { succeededAs: look } : {}),
    ...(options.handling ? { handling: options.handling } : {}),
    now,
  });
}
