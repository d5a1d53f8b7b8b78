/**
 * The application core's part of the composition root: the deps every surface's requests run
 * on (app/app-core.ts), assembled once from the services runtime.ts built. A schedule's run is
 * a typed command over the same deps (`withCore` hands them to its runner).
 */
import type { TraceSteps } from './telemetry/index.js';
import type { Access } from './access/access.js';
import { createAliasControl } from './app/alias-control.js';
import { createAppCore, type AppCore } from './app/app-core.js';
import type { StepDeps } from './app/run-step.js';
import type { createSchedules } from './app/schedule-run.js';
import { createWatchControl } from './app/watch-control.js';
import type { SlackApi } from './chat/slack-api.js';
import type { CloudAccounts } from './cloud/accounts.js';
import type { Clock } from './clock.js';
import type { ChangeFlow } from './confirm/change-types.js';
import type { Auditor } from './domain/audit-entry.js';
import type { Logger } from './log.js';
import { createSubscriptionControl } from './monitor/control.js';
import type { Maintenance } from './monitor/maintenance.js';
import type { Monitor } from './monitor/monitor.js';
import type { MayPersonRead, MayRead } from './monitor/reads.js';
import type { Catalog } from './operations/catalog.js';
import type { Store } from './store/index.js';
import type { KnownResourceStore } from './store/known-types.js';
import type { Watcher } from './watch/watcher.js';
import type { RuntimeOverrides, RuntimeSettings } from './runtime-types.js';

export interface CoreParts {
  settings: Pick<RuntimeSettings, 'unfurl'>;
  overrides: Pick<RuntimeOverrides, 'operationTimeoutMs'>;
  catalog: Catalog;
  accounts: CloudAccounts;
  access: Access;
  /** The account a command names none of: the policy's in force. */
  defaultAccount: () => string;
  store: Store;
  known: KnownResourceStore;
  auditor: Auditor;
  flow: ChangeFlow;
  watcher: Watcher;
  maintenance: Maintenance;
  monitor: Monitor;
  schedules: ReturnType<typeof createSchedules>;
  steps: StepDeps;
  /** Subscriptions' read checks (monitor/reads.ts). */
  mayRead: MayPersonRead;
  channelMay: MayRead;
  clock: Clock;
  logger: Logger;
  slack: SlackApi;
  /** The parse span of a command (telemetry/tracing.ts); no-op when tracing is off. */
  tracing?: TraceSteps;
}

export function createCore(p: CoreParts): AppCore {
  const { settings, overrides, catalog, access, store, clock, watcher, maintenance, auditor } = p;
  return createAppCore(p.schedules.withCore({
    catalog,
    accounts: p.accounts,
    accountLabel: (account) => access.accountLabel(account),
    defaultAccount: p.defaultAccount,
    subscriptions: createSubscriptionControl({ stores: store, clock, monitor: p.monitor, mayRead: p.mayRead, channelMay: p.channelMay }),
    maintenance,
    known: p.known,
    aliases: createAliasControl({ store: store.aliases, catalog, access, clock }),
    policy: access,
    clock,
    logger: p.logger,
    flow: p.flow,
    slack: p.slack,
    store: store.operations,
    watcher,
    watches: createWatchControl({ store: store.watches, watcher, access, auditor, catalog }),
    home: { watches: () => store.watches.listOpen(), subscriptions: () => store.subscriptions.listActive(), maintenance: () => maintenance.list() },
    alertStores: store,
    access,
    auditor,
    ...(settings.unfurl ? { unfurl: settings.unfurl } : {}),
    ...(overrides.operationTimeoutMs !== undefined ? { operationTimeoutMs: overrides.operationTimeoutMs } : {}),
    schedules: p.schedules.control,
    ...(p.tracing ? { tracing: p.tracing } : {}),
  }), { steps: p.steps });
}
