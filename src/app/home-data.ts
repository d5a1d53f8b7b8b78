/**
 * What a person's App Home tab shows (issue 14), read now: account usage, requests waiting for
 * them, watches, subscriptions, their audit trail, and buttons for the common reads. The
 * surface publishes it (slack/register-home.ts: views.publish; the shell prints it).
 *
 * The Home tab has no channel, so what it shows is decided as for a command without one: the
 * person's role from the environment's lists, and `access.check(user, undefined, …)` for each
 * read (so CLOUD_CHANNELS or `default_channel: deny` hide usage here as they refuse commands
 * outside their channels). Approvals are those the change flow would let this person give.
 * A watch or a subscription belongs to a channel and an account: it is listed only to someone
 * who may run the reads it stands for there, on that account (issue 21; record-access.ts).
 * Its buttons are the reads it draws (HOME_READS); a value naming anything else does nothing.
 */
import type { AnyOperation } from '../operations/types.js';
import type { Catalog } from '../operations/catalog.js';
import type { OperationRecord, OperationStore } from '../store/types.js';
import type { WatchRecord } from '../store/watch-store.js';
import type { SubscriptionRecord } from '../store/monitor-types.js';
import type { MaintenanceWindow } from '../store/maintenance-store.js';
import type { AuditEntry } from '../domain/audit-entry.js';
import type { AccountUsage } from '../cloud-api/schemas.js';
import { HOME_LIST_LINES, type HomeButton, type HomeData, type HomeRequest, type HomeUsage } from '../views/home-views.js';
import { isRead, mayReadRecord } from '../access/record-access.js';
import { SUBSCRIPTION_READS, WATCH_READ } from '../operations/record-reads.js';
import type { GuardDeps } from './guard.js';
import type { RunDeps } from './run-operation.js';
import { runButton, type ButtonAnswer } from './run-button.js';
import { approvalNeeded, judgedAs } from '../confirm/judged-as.js';

export interface HomeDataDeps extends RunDeps, GuardDeps {
  catalog: Catalog;
  store: Pick<OperationStore, 'listRecent'>;
  /** Open watches and active subscriptions (the store's), for the Home tab. */
  home?: { watches(): Promise<WatchRecord[]>; subscriptions(): Promise<SubscriptionRecord[]>; maintenance?(): Promise<MaintenanceWindow[]> };
}

/** Pending records looked at for the lists (newest first); older ones have long expired. */
const RECENT_RECORDS = 200;
/** The only operations a Home button runs (what buildHome's buttons are drawn from). */
const HOME_READS: ReadonlySet<string> = new Set(['account.usage', 'audit.list']);
/** Each account's usage read is bounded: the view is published without it rather than late. */
const USAGE_TIMEOUT_MS = 4000;

/** A Home tab button: as a typed command without a channel — the same access check, run and audit entry. */
export function homeButton(deps: HomeDataDeps, value: string | undefined, userId: string): ButtonAnswer {
  return runButton(deps, value, { userId }, (op) => HOME_READS.has(op.id) && isRead(op));
}

/** Everything this person may see on their Home tab, read now. */
export async function homeData(deps: HomeDataDeps, userId: string): Promise<HomeData> {
  const { access, catalog } = deps;
  const policy = access.policy();
  const now = deps.clock.now();
  const role = await access.roleOf(userId);
  const names = policy.namedAccounts ? Object.keys(policy.accounts) : [policy.defaultAccount];
  const usageOp = catalog.byId('account.usage');
  const mayRun = async (op: AnyOperation | undefined, account?: string) => !!op && (await access.check(userId, undefined, op, account)).ok;

  const [usage, records, watches, subscriptions, windows] = await Promise.all([
    Promise.all(names.map((account) => readUsage(deps, account, mayRun(usageOp, account)))),
    deps.store.listRecent({ limit: RECENT_RECORDS }),
    deps.home?.watches() ?? Promise.resolve([]),
    deps.home?.subscriptions() ?? Promise.resolve([]),
    deps.home?.maintenance?.() ?? Promise.resolve([]),
  ]);

  const byId = (id: string) => catalog.byId(id);
  const pending = records.filter((r) => r.status === 'pending' && r.expiresAt > now);
  const request = (r: OperationRecord, op: AnyOperation): HomeRequest => ({
    id: r.id,
    command: op.command,
    args: r.args,
    channelId: r.channelId,
    requestedBy: r.requestedBy,
    expiresAt: r.expiresAt,
    account: r.account,
    // As the change flow asks it (a schedule's card: as the command it arms).
    needsApproval: approvalNeeded(op, r, (o) => !!access.approvalFor(o, r.channelId, r.account ?? policy.defaultAccount), byId),
  });
  const ownRequests: HomeRequest[] = [];
  const approvals: HomeRequest[] = [];
  for (const r of pending) {
    const op = catalog.byId(r.opId);
    if (!op) continue;
    const req = request(r, op);
    if (r.requestedBy === userId) ownRequests.push(req);
    // What the change flow allows: someone else, an admin in the request's channel, passing the same check there.
    else if (
      req.needsApproval &&
      (await access.roleOf(userId, r.channelId)) === 'admin' &&
      (await everyOk(judgedAs(op, r.facts, byId), (o) => access.check(userId, r.channelId, o, r.account ?? policy.defaultAccount)))
    ) {
      approvals.push(req);
    }
  }

  // The trail shows who looked at what: others' entries only for those `/cloud audit` admits.
  const auditOp = catalog.byId('audit.list');
  const auditOfOthers = role === 'admin' && (await mayRun(auditOp));
  // A trail the store could not give is said so, never shown as "Nothing recorded yet".
  const audit: AuditEntry[] | 'unreadable' = deps.auditor
    ? await deps.auditor.list({ limit: HOME_LIST_LINES, ...(auditOfOthers ? {} : { userId }) }).catch(() => 'unreadable' as const)
    : [];

  const buttons: HomeButton[] = [];
  for (const u of usage) {
    if (u.unavailable !== 'not-allowed') buttons.push({ label: policy.namedAccounts ? `Usage: ${u.account}` : 'Account usage', op: 'account.usage', args: {}, ...(policy.namedAccounts ? { account: u.account } : {}) });
  }
  if (auditOfOthers) buttons.push({ label: 'Audit trail', op: 'audit.list', args: {} });

  return {
    userId,
    role,
    now,
    showAccounts: policy.namedAccounts,
    usage,
    ownRequests,
    // Only an admin approves: the list is left out for others rather than shown empty.
    approvals: role === 'admin' || approvals.length ? approvals : undefined,
    watches: await readable(deps, userId, watches.filter((w) => w.status === 'active' || w.status === 'finalizing'), (w) => [WATCH_READ[w.kind]]),
    subscriptions: await readable(deps, userId, subscriptions, (s) => SUBSCRIPTION_READS[s.kind] ?? []),
    ...(windows.length ? { maintenance: windows } : {}),
    ...(deps.schedules ? { schedules: { list: await deps.schedules.listVisible(userId), zoneTime: deps.schedules.zoneTime } } : {}),
    audit,
    auditOfOthers,
    buttons,
  };
}

/** Whether every check passes, in turn (the first refusal ends it). */
async function everyOk<T>(items: T[], check: (item: T) => Promise<{ ok: boolean }>): Promise<boolean> {
  for (const item of items) if (!(await check(item)).ok) return false;
  return true;
}

/** The records this person may read: each one's reads, in its channel, on its account. */
async function readable<T extends WatchRecord | SubscriptionRecord>(deps: HomeDataDeps, userId: string, records: T[], reads: (r: T) => readonly string[]): Promise<T[]> {
  const shown = await Promise.all(records.map((r) => mayReadRecord(deps.access, userId, r, reads(r).map((id) => deps.catalog.byId(id)))));
  return records.filter((_, i) => shown[i]);
}

/**
 * Not audited: opening the Home tab is not a command, and an entry per visit would fill the
 * person's own trail with it. The button (a command) is audited like any other.
 */
async function readUsage(deps: HomeDataDeps, account: string, allowed: Promise<boolean>): Promise<HomeUsage> {
  if (!(await allowed)) return { account, unavailable: 'not-allowed' };
  try {
    const usage: AccountUsage = await deps.accounts.client(account).account.usage({ signal: AbortSignal.timeout(USAGE_TIMEOUT_MS) });
    return { account, usage };
  } catch (error) {
    deps.logger.warn('Home tab: could not read account usage', { account, error });
    return { account, unavailable: 'failed' };
  }
}
