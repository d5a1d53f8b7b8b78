/**
 * The composition root's services over the store and the cloud: the watcher, maintenance
 * windows, the monitor (subscriptions and alerts), the change flow and schedules (workflow
 * steps: runtime-steps.ts). runtime.ts builds what they share (store, accounts, access,
 * auditor, budget) and starts and stops their loops.
 */
import type { TraceSteps } from './telemetry/index.js';
import type { Access } from './access/access.js';
import { groupsThatCouldGive } from './access/roles.js';
import type { SlackApi } from './chat/slack-api.js';
import { createPostQueue } from './chat/post-queue.js';
import type { CloudAccounts } from './cloud/accounts.js';
import type { RequestBudget } from './cloud/request-budget.js';
import type { Clock } from './clock.js';
import { createChangeFlow } from './confirm/change-flow.js';
import type { Auditor } from './domain/audit-entry.js';
import type { Logger } from './log.js';
import { createMaintenance } from './monitor/maintenance.js';
import { createMonitor } from './monitor/monitor.js';
import type { MayRead } from './monitor/reads.js';
import type { Catalog } from './operations/catalog.js';
import type { Sealer, Store } from './store/index.js';
import type { KnownResourceStore } from './store/known-types.js';
import { refusalText } from './views/access-views.js';
import { approverUnread, ONLY_ADMINS_APPROVE } from './views/click-views.js';
import { createParentRefresher } from './watch/parent-message.js';
import { createWatcher, type Watcher, type WatcherDeps } from './watch/watcher.js';
import { nameSteps } from './app/name-steps.js';
import { createSchedules } from './app/schedule-run.js';
import { admit, auditRefusal } from './app/guard.js';
import { auditEntry } from './audit/entry.js';
import type { RuntimeOverrides, RuntimeSettings } from './runtime-types.js';

export interface ServiceParts {
  settings: Pick<RuntimeSettings, 'watch' | 'monitor' | 'schedule'>;
  overrides: RuntimeOverrides;
  store: Store;
  accounts: CloudAccounts;
  access: Access;
  auditor: Auditor;
  known: KnownResourceStore;
  catalog: Catalog;
  budget: RequestBudget;
  sealer: Sealer;
  clock: Clock;
  logger: Logger;
  slack: SlackApi;
  /** A record's account: its own, else the default one. */
  accountOf: (account: string | null) => string;
  /** Whether a subscription's channel may still read what it posts (monitor/reads.ts). */
  channelMay: MayRead;
  /** Traces: the watcher remembering each watch's request, and one span per poll (runtime-telemetry.ts). */
  traces: { remembering: (watcher: Watcher) => Watcher; poll: NonNullable<WatcherDeps['tracePoll']> };
  /** Spans of a change's send, linked to the request that made it (telemetry/tracing.ts). */
  tracing?: TraceSteps;
}

export function createServices(p: ServiceParts) {
  const { settings, overrides, store, accounts, access, catalog, clock, logger, accountOf, budget } = p;
  const slack = p.slack;
  const label = (account: string | null) => access.accountLabel(accountOf(account));
  const watcher = p.traces.remembering(createWatcher({
    budget,
    store: store.watches,
    cloudFor: (account) => accounts.watchClient(accountOf(account)),
    clock,
    logger: logger.child({ component: 'watcher' }),
    slack,
    accountLabel: label,
    refreshParent: createParentRefresher({ operations: store.operations, catalog, slack, clock, accountLabel: label }),
    kinds: catalog.watchKinds,
    ...(settings.watch?.intervalMs ? { intervalMs: settings.watch.intervalMs } : {}),
    ...(settings.watch?.broadcast ? { broadcast: settings.watch.broadcast } : {}),
    ...(settings.watch?.leaseMs ? { leaseMs: settings.watch.leaseMs } : {}),
    ...(overrides.watchConcurrency ? { concurrency: overrides.watchConcurrency } : {}),
    tracePoll: p.traces.poll,
    // A credential from a watch goes only to a requester who may read credentials there, now.
    maySeeSecret: async (w) => {
      const read = catalog.byId('server.credentials');
      return !!read && (await access.check(w.requestedBy, w.channelId, read, accountOf(w.account))).ok;
    },
  }));
  const maintenance = createMaintenance({
    store: store.maintenance,
    operations: store.operations,
    slack,
    clock,
    logger: logger.child({ component: 'maintenance' }),
    accountOf,
    accountLabel: label,
  });
  const monitor = createMonitor({
    maintenance,
    slack,
    stores: store,
    cloudFor: (account) => accounts.watchClient(accountOf(account)),
    budget,
    queue: createPostQueue({ slack, clock, logger: logger.child({ component: 'alerts' }), ...(overrides.postSpacingMs !== undefined ? { spacingMs: overrides.postSpacingMs } : {}) }),
    clock,
    logger: logger.child({ component: 'monitor' }),
    accountLabel: label,
    owner: watcher.owner,
    ...(settings.monitor?.intervalMs ? { intervalMs: settings.monitor.intervalMs } : {}),
    ...(settings.monitor?.holdPolls ? { holdPolls: settings.monitor.holdPolls } : {}),
    ...(overrides.monitorRecheckMs !== undefined ? { recheckMs: overrides.monitorRecheckMs } : {}),
    digest: { watches: () => store.watches.listOpen() },
    mayRead: p.channelMay,
  });
  const flow = createChangeFlow({
    auditor: p.auditor,
    startWatch: (input) => watcher.watch(input),
    beginWatch: (id) => watcher.begin(id),
    needsApproval: (op, where) => !!access.approvalFor(op, where.channelId, accountOf(where.account)),
    undoDelay: (op, where) => access.undoDelayFor(op, where.channelId),
    // A reinstall's new root password goes to its requester only if they may read credentials
    // there now, as a watch's does (above); a refusal is audited as a refused `server credentials`.
    maySeeSecret: async (record) => {
      const read = catalog.byId('server.credentials');
      if (!read) return 'no';
      const args = record.args.server !== undefined ? { server: record.args.server } : {};
      const admitted = await admit({ access, auditor: p.auditor }, read, record.requestedBy, record.channelId, args, accountOf(record.account));
      return admitted.ok ? 'yes' : admitted.unread ? 'unchecked' : 'no';
    },
    // A click is checked against the clicker's role now, in the channel and on the account of the request.
    // A person's refused click is audited, as a typed command's refusal is; the bot's own checks
    // again (an undo window's end) are audited as their outcome instead.
    authorize: async (record, op, userId, action, click) => {
      const account = accountOf(record.account);
      const decision = await access.check(userId, record.channelId, op, account);
      if (!decision.ok) {
        if (click) await auditRefusal({ access, auditor: p.auditor }, op, userId, record.channelId, record.args, account, decision, `${action} click refused: `);
        const text = refusalText(decision, op.command, op.tier);
        return decision.reason === 'role' && decision.unread ? { text, unread: decision.unread } : text;
      }
      // The second person of a two-person approval is an admin, not any role that may run it.
      if (action !== 'approve') return undefined;
      const { role, unread = [] } = await access.findRole(userId, record.channelId);
      if (role === 'admin') return undefined;
      const mayGive = groupsThatCouldGive(unread, (r) => r === 'admin');
      if (click) {
        const unreadWords = mayGive.length ? `; user group ${mayGive.join(', ')}, which may give it, could not be read` : '';
        await p.auditor.record(
          auditEntry({ op, userId, channelId: record.channelId, args: record.args, account, outcome: 'refused', errorCode: 'ACCESS_DENIED', detail: `approve click refused: an approval needs the admin role; has ${role ?? 'no role'}${unreadWords}` }),
        );
      }
      return mayGive.length ? { text: approverUnread(mayGive), unread: mayGive } : ONLY_ADMINS_APPROVE;
    },
    store: store.operations,
    names: nameSteps(p.known),
    cloudFor: (account) => accounts.client(accountOf(account)),
    accountLabel: label,
    clock,
    logger,
    slack,
    sealer: p.sealer,
    catalog,
    ...(p.tracing ? { tracing: p.tracing } : {}),
    ...(overrides.confirmTtlMs ? { confirmTtlMs: overrides.confirmTtlMs } : {}),
  });
  const schedules = createSchedules({ stores: store, catalog, access, auditor: p.auditor, flow, slack, clock, logger, owner: watcher.owner, settings: settings.schedule });
  return { watcher, maintenance, monitor, flow, schedules };
}
