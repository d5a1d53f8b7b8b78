/**
 * The Bolt app: a receiver for the chosen mode, our logger, and the handlers. Nothing here
 * knows about particular operations; they come from the catalog.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel, SocketModeReceiver, type Receiver } from '@slack/bolt';
import type { CloudClient } from '../cloud/cloud-client.js';
import type { Clock } from '../clock.js';
import type { SlackConfig } from '../config.js';
import { boltLogger, type Logger } from '../log.js';
import type { Catalog } from '../operations/catalog.js';
import { createChangeFlow, type ChangeFlow } from '../confirm/change-flow.js';
import type { Sealer } from '../store/seal.js';
import type { OperationStore } from '../store/types.js';
import { registerChanges } from './register-changes.js';
import { registerCommand } from './register-command.js';
import { registerPager } from './register-pager.js';
import type { SlackApi } from '../chat/slack-api.js';
import { slackApiFromClient } from './web-client-api.js';
import { registerWatchActions } from './watch-commands.js';
import type { WatchStore } from '../store/watch-store.js';
import { createAccess, type Access } from '../access/access.js';
import { createAuditor, type AuditorService } from '../audit/auditor.js';
import type { AuditStore } from '../store/audit-store.js';
import type { PolicyFile } from '../access/policy-file.js';
import type { AccessConfig } from '../config.js';
import { refusalText } from '../views/access-views.js';
import { createParentRefresher } from '../watch/parent-message.js';
import { createWatcher, type BroadcastPolicy, type Watcher } from '../watch/watcher.js';

export interface BotDeps {
  slack: SlackConfig;
  cloud: CloudClient;
  /** The watcher's own client (its requests name themselves); default: `cloud`. */
  watchCloud?: CloudClient;
  clock: Clock;
  logger: Logger;
  catalog: Catalog;
  operations: OperationStore;
  watches: WatchStore;
  /** Where audit entries are stored; AUDIT_CHANNEL, if set, also gets them. */
  audit: { store: AuditStore; channel?: string };
  /** Who may do what, where: the role lists, and the per-channel policy file if any. */
  access: { config: AccessConfig; policy?: PolicyFile; cacheMs?: number };
  sealer: Sealer;
  /** Watch settings (WATCH_INTERVAL_MS, WATCH_BROADCAST; concurrency cap on cloud calls). */
  watch?: { intervalMs?: number; broadcast?: BroadcastPolicy; concurrency?: number };
  slowNoticeMs?: number;
  operationTimeoutMs?: number;
  /** How long a Confirm button works (default 10 minutes). */
  confirmTtlMs?: number;
  /** How often pending confirmations are checked for expiry (default 30 s). */
  expirySweepMs?: number;
  /** WebClient retry policy override (tests use @slack/web-api's rapidRetryPolicy). */
  slackRetryConfig?: import('@slack/bolt').webApi.RetryOptions;
  /** A receiver of our own instead of Socket Mode or HTTP: the local shell's (mode `shell`). */
  receiver?: Receiver;
}

export interface Bot {
  app: InstanceType<typeof App>;
  flow: ChangeFlow;
  slackApi: SlackApi;
  watcher: Watcher;
  access: Access;
  auditor: AuditorService;
  /** Starts receiving; in HTTP mode resolves with the port actually bound (port 0 in tests). */
  start(): Promise<{ port?: number }>;
  stop(): Promise<void>;
}

export function createBot(deps: BotDeps): Bot {
  const { slack } = deps;
  const logger = boltLogger(deps.logger.child({ component: 'bolt' }));
  const clientOptions = {
    ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
    ...(deps.slackRetryConfig ? { retryConfig: deps.slackRetryConfig } : {}),
  };
  const health = [{ path: '/healthz', method: 'GET', handler: (_req: unknown, res: import('node:http').ServerResponse) => res.end('ok') }];

  if (slack.mode === 'shell' && !deps.receiver) throw new Error('shell mode needs the shell’s receiver');
  const receiver =
    deps.receiver ??
    (slack.mode === 'socket'
      ? new SocketModeReceiver({
          appToken: slack.appToken!,
          logger,
          logLevel: LogLevel.INFO,
          // The socket client opens its connection through the Web API (apps.connections.open),
          // so it must use the same API URL as the app's own client.
          installerOptions: { clientOptions },
        })
      : new HTTPReceiver({
          signingSecret: slack.signingSecret!,
          endpoints: '/slack/events',
          logger,
          logLevel: LogLevel.INFO,
          customRoutes: health,
          // Ack is sent as soon as a handler calls ack(); work continues after (never before).
          processBeforeResponse: false,
        }));

  const app = new App({
    token: slack.botToken,
    receiver,
    logger,
    logLevel: LogLevel.INFO,
    clientOptions,
    deferInitialization: true,
  });

  const slackApi = slackApiFromClient(app.client);
  const auditor = createAuditor({
    store: deps.audit.store,
    logger: deps.logger.child({ component: 'audit' }),
    slack: slackApi,
    ...(deps.audit.channel ? { auditChannel: deps.audit.channel } : {}),
    clock: deps.clock,
  });
  const access = createAccess({
    config: deps.access.config,
    ...(deps.access.policy ? { policy: deps.access.policy } : {}),
    groupMembers: (id) => slackApi.usergroupMembers(id),
    clock: deps.clock,
    logger: deps.logger,
    ...(deps.access.cacheMs !== undefined ? { cacheMs: deps.access.cacheMs } : {}),
  });
  const watcher = createWatcher({
    store: deps.watches,
    cloud: deps.watchCloud ?? deps.cloud,
    clock: deps.clock,
    logger: deps.logger.child({ component: 'watcher' }),
    slack: slackApi,
    refreshParent: createParentRefresher({ operations: deps.operations, catalog: deps.catalog, slack: slackApi, clock: deps.clock }),
    ...(deps.watch?.intervalMs ? { intervalMs: deps.watch.intervalMs } : {}),
    ...(deps.watch?.broadcast ? { broadcast: deps.watch.broadcast } : {}),
    ...(deps.watch?.concurrency ? { concurrency: deps.watch.concurrency } : {}),
  });
  const watchControl = {
    list: () => deps.watches.listRecent(200),
    cancel: (id: string, userId: string) => watcher.cancel(id, userId),
  };
  const flow = createChangeFlow({
    auditor,
    startWatch: (input) => watcher.watch(input),
    needsApproval: (op) => access.needsApproval(op),
    // A click is checked against the clicker's role now, in the channel of the request.
    authorize: async (record, op, userId) => {
      const decision = await access.check(userId, record.channelId, op.tier);
      return decision.ok ? undefined : refusalText(decision, `/cloud ${op.resource} ${op.verb}`, op.tier);
    },
    store: deps.operations,
    cloud: deps.cloud,
    clock: deps.clock,
    logger: deps.logger,
    slack: slackApi,
    sealer: deps.sealer,
    catalog: deps.catalog,
    ...(deps.confirmTtlMs ? { confirmTtlMs: deps.confirmTtlMs } : {}),
  });
  const handlerDeps = { ...deps, flow, slack: slackApi, store: deps.operations, watcher, watches: watchControl, access, auditor };
  registerCommand(app, handlerDeps);
  registerPager(app, handlerDeps);
  registerChanges(app, handlerDeps);
  registerWatchActions(app, handlerDeps);
  let sweep: NodeJS.Timeout | undefined;
  app.error(async (error) => {
    deps.logger.error('unhandled error in a Slack handler', { error });
  });

  return {
    app,
    flow,
    slackApi,
    watcher,
    access,
    auditor,
    async start() {
      await app.init();
      const recovered = await flow.recoverInterrupted();
      if (recovered) deps.logger.warn('changes interrupted by the last stop were marked failed', { count: recovered });
      sweep = setInterval(() => {
        flow.expireDue().catch((error: unknown) => deps.logger.error('expiry sweep failed', { error }));
      }, deps.expirySweepMs ?? 30_000);
      sweep.unref();
      watcher.start(); // resumes every open watch from the store
      const server = (await app.start(slack.port)) as unknown;
      if (slack.mode === 'http' && server && typeof (server as Server).address === 'function') {
        const address = (server as Server).address() as AddressInfo | null;
        return { port: address?.port ?? slack.port };
      }
      return {};
    },
    async stop() {
      if (sweep) clearInterval(sweep);
      await watcher.stop(); // the poll in flight finishes first
      await app.stop();
      await auditor.flush(); // audit posts still queued go out before the database closes
    },
  };
}
