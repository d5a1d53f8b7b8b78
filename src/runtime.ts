/**
 * The composition root: from settings to a running bot. Builds the store, the cloud clients
 * (one connection pool), the sealer, the auditor, access control, the watcher, the change
 * flow and the Bolt app with its listeners; `start` and `stop` bring them up and down in
 * order. src/main.ts, the local shell, the bench and the test rigs all come through here, so
 * what they run is the production wiring; tests change only what `overrides` names.
 */
import type { Receiver, webApi } from '@slack/bolt';
import { Agent, type Dispatcher } from 'undici';
import { createAccess, type Access } from './access/access.js';
import type { PolicyFile } from './access/policy-file.js';
import { createAuditor, type AuditorService } from './audit/auditor.js';
import type { SlackApi } from './chat/slack-api.js';
import { createCloudClient, type ClosableCloudClient } from './cloud/client.js';
import type { RetryOptions } from './cloud/retry.js';
import { systemClock, type Clock } from './clock.js';
import type { AccessConfig, CloudConfig, LogLevelName, SlackConfig } from './config.js';
import { createChangeFlow, type ChangeFlow } from './confirm/change-flow.js';
import { createLogger, type Logger } from './log.js';
import type { Catalog } from './operations/catalog.js';
import { catalog as defaultCatalog } from './operations/index.js';
import { createSlackApp, listen, registerListeners, type BoltApp, type Readiness } from './slack/app.js';
import { waitForSlack } from './slack/wait-for-slack.js';
import { createSealer, createStore, type DatabaseTarget, type Sealer, type Store } from './store/index.js';
import { refusalText } from './views/access-views.js';
import { createParentRefresher } from './watch/parent-message.js';
import { createWatcher, type BroadcastPolicy, type Watcher } from './watch/watcher.js';

/** How long start-up waits for Slack's auth.test before giving up (SLACK_START_TIMEOUT_MS). */
export const DEFAULT_SLACK_START_TIMEOUT_MS = 5 * 60_000;

/** The watcher's requests name themselves in the provider's logs (and tests tell them apart so). */
export const WATCHER_USER_AGENT = 'cloudbot/0.1 (watcher)';

export interface RuntimeSettings {
  slack: SlackConfig;
  cloud: CloudConfig;
  /** SQLite file (`:memory:` for a throwaway one). */
  databasePath: string;
  /** Wins over databasePath when set: SQLite, or PostgreSQL shared by replicas (DATABASE_URL). */
  database?: DatabaseTarget;
  access: { config: AccessConfig; policy?: PolicyFile };
  auditChannel?: string | undefined;
  watch?: { intervalMs?: number; broadcast?: BroadcastPolicy; leaseMs?: number };
  log?: { level?: LogLevelName; sink?: (line: string) => void };
}

/** What tests, the bench and the shell change; production passes none of these. */
export interface RuntimeOverrides {
  clock?: Clock;
  /** Connection pool for both cloud clients; injected ones are left open by `stop`. */
  dispatcher?: Dispatcher;
  /** Retry policy of both cloud clients (tests shorten it). */
  cloudRetry?: RetryOptions;
  /** WebClient retry policy (tests keep the production number of tries, without the waits). */
  slackRetryConfig?: webApi.RetryOptions;
  /** WebClient timeout per call (default SLACK_CALL_TIMEOUT_MS; tests shorten it to test a hang). */
  slackCallTimeoutMs?: number;
  /** The shell's receiver instead of Socket Mode or HTTP. */
  receiver?: Receiver;
  catalog?: Catalog;
  /** How long user-group memberships are cached by access control. */
  groupCacheMs?: number;
  watchConcurrency?: number;
  slowNoticeMs?: number;
  operationTimeoutMs?: number;
  /** How long a Confirm button works (default 10 minutes). */
  confirmTtlMs?: number;
  /** How often pending confirmations are checked for expiry (default 30 s). */
  expirySweepMs?: number;
}

export interface Runtime {
  logger: Logger;
  store: Store;
  /** The commands' cloud client and the watcher's own (same pool, its own User-Agent). */
  cloud: ClosableCloudClient;
  watchCloud: ClosableCloudClient;
  sealer: Sealer;
  auditor: AuditorService;
  access: Access;
  watcher: Watcher;
  flow: ChangeFlow;
  app: BoltApp;
  slackApi: SlackApi;
  /** Starts receiving; in HTTP mode resolves with the port actually bound (port 0 in tests). */
  start(): Promise<{ port?: number }>;
  /** Finishes what is in flight, then closes the app, the pool (if its own) and the store. */
  stop(): Promise<void>;
}

export function createRuntime(settings: RuntimeSettings, overrides: RuntimeOverrides = {}): Runtime {
  const { slack } = settings;
  const clock = overrides.clock ?? systemClock;
  const catalog = overrides.catalog ?? defaultCatalog;
  const logger = createLogger({
    ...(settings.log?.level ? { level: settings.log.level } : {}),
    ...(settings.log?.sink ? { sink: settings.log.sink } : {}),
    secrets: [slack.botToken, slack.appToken, slack.signingSecret, settings.cloud.token],
  });

  const store = createStore(settings.database ?? { kind: 'sqlite', path: settings.databasePath }, { clock });
  const ownPool = overrides.dispatcher ? undefined : new Agent({ connect: { timeout: 5000 }, headersTimeout: 20_000, bodyTimeout: 20_000 });
  const clientOptions = {
    baseUrl: settings.cloud.baseUrl,
    token: settings.cloud.token,
    clock,
    dispatcher: overrides.dispatcher ?? ownPool!,
    ...(overrides.cloudRetry ? { retry: overrides.cloudRetry } : {}),
  };
  const cloud = createCloudClient(clientOptions);
  const watchCloud = createCloudClient({ ...clientOptions, userAgent: WATCHER_USER_AGENT });
  // Sealed secrets live minutes (a pending reinstall's password); the key comes from the bot's
  // own credentials, so a copied database file alone does not open them.
  const sealer = createSealer([slack.botToken, settings.cloud.token]);

  // What /readyz reports about Slack: set by start-up, and by the last start-up wait's error.
  let slackState = 'not started';
  const readiness = async (): Promise<Readiness> => {
    let storeState = 'ok';
    try {
      await store.operations.listRecent({ limit: 1 });
    } catch (e) {
      storeState = `unreachable: ${e instanceof Error ? e.message : String(e)}`;
    }
    return { ready: storeState === 'ok' && slackState === 'ok', checks: { store: storeState, slack: slackState } };
  };
  const { app, slackApi, authTestOnce, httpReceiver } = createSlackApp({
    slack,
    logger,
    readiness,
    ...(overrides.slackRetryConfig ? { slackRetryConfig: overrides.slackRetryConfig } : {}),
    ...(overrides.slackCallTimeoutMs ? { slackCallTimeoutMs: overrides.slackCallTimeoutMs } : {}),
    ...(overrides.receiver ? { receiver: overrides.receiver } : {}),
  });
  const auditor = createAuditor({
    store: store.audit,
    logger: logger.child({ component: 'audit' }),
    slack: slackApi,
    ...(settings.auditChannel ? { auditChannel: settings.auditChannel } : {}),
    clock,
  });
  const access = createAccess({
    config: settings.access.config,
    ...(settings.access.policy ? { policy: settings.access.policy } : {}),
    groupMembers: (id) => slackApi.usergroupMembers(id),
    clock,
    logger,
    ...(overrides.groupCacheMs !== undefined ? { cacheMs: overrides.groupCacheMs } : {}),
  });
  const watcher = createWatcher({
    store: store.watches,
    cloud: watchCloud,
    clock,
    logger: logger.child({ component: 'watcher' }),
    slack: slackApi,
    refreshParent: createParentRefresher({ operations: store.operations, catalog, slack: slackApi, clock }),
    kinds: catalog.watchKinds,
    ...(settings.watch?.intervalMs ? { intervalMs: settings.watch.intervalMs } : {}),
    ...(settings.watch?.broadcast ? { broadcast: settings.watch.broadcast } : {}),
    ...(settings.watch?.leaseMs ? { leaseMs: settings.watch.leaseMs } : {}),
    ...(overrides.watchConcurrency ? { concurrency: overrides.watchConcurrency } : {}),
  });
  const flow = createChangeFlow({
    auditor,
    startWatch: (input) => watcher.watch(input),
    needsApproval: (op) => access.needsApproval(op),
    // A click is checked against the clicker's role now, in the channel of the request.
    authorize: async (record, op, userId) => {
      const decision = await access.check(userId, record.channelId, op.tier);
      return decision.ok ? undefined : refusalText(decision, op.command, op.tier);
    },
    store: store.operations,
    cloud,
    clock,
    logger,
    slack: slackApi,
    sealer,
    catalog,
    ...(overrides.confirmTtlMs ? { confirmTtlMs: overrides.confirmTtlMs } : {}),
  });
  registerListeners(app, {
    catalog,
    cloud,
    clock,
    logger,
    flow,
    slack: slackApi,
    store: store.operations,
    watcher,
    watches: { list: () => store.watches.listRecent(200), cancel: (id, userId) => watcher.cancel(id, userId) },
    access,
    auditor,
    ...(overrides.slowNoticeMs !== undefined ? { slowNoticeMs: overrides.slowNoticeMs } : {}),
    ...(overrides.operationTimeoutMs !== undefined ? { operationTimeoutMs: overrides.operationTimeoutMs } : {}),
  });

  let sweep: NodeJS.Timeout | undefined;
  let stopped = false;
  const stopping = new AbortController();
  let listening = false;
  return {
    logger,
    store,
    cloud,
    watchCloud,
    sealer,
    auditor,
    access,
    watcher,
    flow,
    app,
    slackApi,
    async start() {
      if (access.unconfigured) {
        logger.warn(
          'No roles are configured, so everyone is a viewer (reads only). Grant more with CLOUD_ADMINS and CLOUD_OPERATORS (Slack user or user group ids), or ACCESS_POLICY for per-channel roles.',
        );
      }
      // A database that cannot be migrated stops start-up here, with its own message.
      await store.ready?.();
      // HTTP: /healthz and /readyz answer while the bot waits for Slack.
      const early = httpReceiver ? await listen(app, slack, httpReceiver) : undefined;
      if (early) {
        listening = true;
        logger.info(`HTTP server up on :${early.port} (/healthz, /readyz); waiting for Slack to answer auth.test`);
      }
      slackState = 'waiting for auth.test';
      await waitForSlack({ authTest: authTestOnce, clock, logger, timeoutMs: slack.startTimeoutMs ?? DEFAULT_SLACK_START_TIMEOUT_MS, signal: stopping.signal });
      await app.init();
      slackState = 'ok';
      const recover = async () => {
        const recovered = await flow.recoverInterrupted();
        if (recovered) logger.warn('changes left running by a stopped process were marked failed', { count: recovered });
      };
      await recover();
      // Every replica sweeps: expired confirmations, and changes a dead replica left running.
      sweep = setInterval(() => {
        flow.expireDue().catch((error: unknown) => logger.error('expiry sweep failed', { error }));
        recover().catch((error: unknown) => logger.error('recovery sweep failed', { error }));
      }, overrides.expirySweepMs ?? 30_000);
      sweep.unref();
      watcher.start(); // resumes every open watch from the store
      if (early) return early;
      const bound = await listen(app, slack);
      listening = true;
      return bound;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      stopping.abort(); // a start-up still waiting for Slack gives up
      if (sweep) clearInterval(sweep);
      await watcher.stop(); // the poll in flight finishes first
      if (listening) await app.stop();
      await auditor.flush(); // audit posts still queued go out before the database closes
      await cloud.close();
      await watchCloud.close();
      await ownPool?.close();
      await store.close();
    },
  };
}
