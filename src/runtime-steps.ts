/**
 * Workflow steps' part of the composition root (issue 23): the core's step dependencies (the
 * same access, audit, change flow and names a slash command uses) and the driver that moves
 * waiting steps. runtime.ts registers the listener with the core and starts and stops the driver.
 */
import type { Access } from './access/access.js';
import type { CloudAccounts } from './cloud/accounts.js';
import type { SlackApi } from './chat/slack-api.js';
import type { Clock } from './clock.js';
import type { ChangeFlow } from './confirm/change-types.js';
import type { Auditor } from './domain/audit-entry.js';
import type { Logger } from './log.js';
import type { Catalog } from './operations/catalog.js';
import type { Store } from './store/index.js';
import type { KnownResourceStore } from './store/known-types.js';
import type { StepDeps } from './app/run-step.js';
import { createStepDriver, type StepDriver } from './app/step-driver.js';
import type { RuntimeOverrides } from './runtime-types.js';

export interface StepParts {
  store: Store;
  flow: ChangeFlow;
  catalog: Catalog;
  accounts: CloudAccounts;
  access: Access;
  auditor: Auditor;
  known: KnownResourceStore;
  clock: Clock;
  logger: Logger;
  slack: SlackApi;
  /** A record's account: its own, else the default one. */
  accountOf: (account: string | null) => string;
  /** This replica's name in leases (the watcher's). */
  owner: string;
  overrides: Pick<RuntimeOverrides, 'operationTimeoutMs' | 'stepCheckMs'>;
}

export function createSteps(p: StepParts): { core: StepDeps; driver: StepDriver } {
  const core: StepDeps = {
    catalog: p.catalog,
    flow: p.flow,
    steps: p.store.steps,
    operations: p.store.operations,
    watchRecords: p.store.watches,
    slack: p.slack,
    cloudFor: (account) => p.accounts.client(p.accountOf(account)),
    owner: p.owner,
    accounts: p.accounts,
    accountLabel: (account) => p.access.accountLabel(account),
    defaultAccount: () => p.access.policy().defaultAccount,
    known: p.known,
    access: p.access,
    auditor: p.auditor,
    clock: p.clock,
    logger: p.logger.child({ component: 'steps' }),
    ...(p.overrides.operationTimeoutMs !== undefined ? { operationTimeoutMs: p.overrides.operationTimeoutMs } : {}),
    ...(p.overrides.stepCheckMs !== undefined ? { checkEveryMs: p.overrides.stepCheckMs } : {}),
  };
  return { core, driver: createStepDriver(core) };
}
