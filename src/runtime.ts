/**
 * The composition root: from settings to a running bot — store, cloud clients per account
 * (one pool), sealer, auditor, access, watcher, monitor, change flow, the application core
 * (app/app-core.ts), the Bolt app and the listeners that deliver the core's answers; `start`
 * and `stop` bring them up and down in order. src/main.ts, the local shell, the bench and the
 * test rigs all come through here, so what they run is the production wiring; tests change
 * only what `overrides` names. Its parts: runtime-services.ts (watcher, maintenance, monitor,
 * change flow, schedules), runtime-steps.ts, runtime-core.ts (the core's deps),
 * runtime-readiness.ts (/readyz), runtime-upkeep.ts, runtime-shutdown.ts, runtime-policy.ts, runtime-telemetry.ts.
 */
import { Agent } from 'undici';
import { createAccess } from './access/access.js';
import { createPolicySource, type PolicySource } from './access/policy-source.js';
import { withInventory } from './access/known-inventory.js';
import { createCloudAccounts } from './cloud/accounts.js';
import { createRequestBudget } from './cloud/request-budget.js';
import { createAuditor } from './audit/auditor.js';
import { systemClock } from './clock.js';
import { runUndoWindow } from './confirm/undo-window.js';
import { createLogger } from './log.js';
import { subscriptionReadChecks } from './monitor/reads.js';
import { catalog as defaultCatalog } from './operations/index.js';
import { createAfterAck } from './slack/after-ack.js';
import { createSlackApp, listen, registerListeners } from './slack/app.js';
import { waitForSlack } from './slack/wait-for-slack.js';
import { createSealer, createStore } from './store/index.js';
import { skipRecentlyRemembered } from './store/known-recent.js';
import { cloudAttempts, observeAuditor } from './telemetry/index.js';
import { resolvePolicy, policyAuditEntry } from './runtime-policy.js';
import { createReadinessProbe } from './runtime-readiness.js';
import { recoverChanges, startUpkeep } from './runtime-upkeep.js';
import { createServices } from './runtime-services.js';
import { createCore } from './runtime-core.js';
import { createSteps } from './runtime-steps.js';
import { afterAckHooks, observedStore, readGauges, runtimeTelemetry, telemetryLifecycle, telemetrySecrets, tracedAccess, watchTraces } from './runtime-telemetry.js';
import { closeConnectionsWhileStopping, DEFAULT_SHUTDOWN_TIMEOUT_MS, listenerDelay, settleListeners } from './runtime-shutdown.js';

/** How long start-up waits for Slack's auth.test before giving up (SLACK_START_TIMEOUT_MS). */
export const DEFAULT_SLACK_START_TIMEOUT_MS = 5 * 60_000;

/** How long `/readyz` waits for the store before answering "not ready" (runtime-readiness.ts). */
export { READY_CHECK_MS } from './runtime-readiness.js';

/** What `start` rejects with when a stop came first: nothing more was started. */
const stoppedWhileStarting = () => new Error('stopped while starting');

/** The watcher's requests name themselves in the provider's logs (and tests tell them apart so). */
export const WATCHER_USER_AGENT = 'cloudbot/0.1 (watcher)';

import type { Runtime, RuntimeOverrides, RuntimeSettings } from './runtime-types.js';

export type { Runtime, RuntimeOverrides, RuntimeSettings } from './runtime-types.js';

export function createRuntime(settings: RuntimeSettings, overrides: RuntimeOverrides = {}): Runtime {
  const { slack } = settings;
  const clock = overrides.clock ?? systemClock;
  const catalog = overrides.catalog ?? defaultCatalog;
  const { path, policyOf, targetsOf, initialPolicy } = resolvePolicy(settings);
  const initialTargets = targetsOf(initialPolicy);
  const telemetry = runtimeTelemetry(settings.telemetry);
  const logger = createLogger({
    context: telemetry.tracing.logFields,
    ...(settings.log?.level ? { level: settings.log.level } : {}),
    ...(settings.log?.sink ? { sink: settings.log.sink } : {}),
    secrets: [slack.botToken, slack.appToken, slack.signingSecret, ...initialTargets.map((t) => t.token), ...telemetrySecrets(settings.telemetry)],
  });

  const { store, holdsLease } = observedStore(createStore(settings.database ?? { kind: 'sqlite', path: settings.databasePath }, { clock }), telemetry, () => watcher.owner);
  const ownPool = overrides.dispatcher ? undefined : new Agent({ connect: { timeout: 5000 }, headersTimeout: 20_000, bodyTimeout: 20_000 });
  const accounts = createCloudAccounts({
    targets: initialTargets,
    clock,
    dispatcher: overrides.dispatcher ?? ownPool!,
    ...(overrides.cloudRetry ? { retry: overrides.cloudRetry } : {}),
    watchUserAgent: WATCHER_USER_AGENT,
    observe: cloudAttempts(telemetry),
  });
  // Sealed secrets live minutes (a pending reinstall's password); the key comes from the bot's
  // own credentials, so a copied database file alone does not open them.
  const sealer = createSealer([slack.botToken, initialTargets.find((t) => t.name === initialPolicy.defaultAccount)!.token]);
  let policySource: PolicySource | undefined;
  const currentPolicy = () => policySource?.current() ?? initialPolicy;
  /** A record's account: its own, else (written before accounts) the default one. */
  const accountOf = (account: string | null) => account ?? currentPolicy().defaultAccount;

  // What /readyz answers: the store within a bound, Slack once start-up saw it; not ready once stopping.
  const probe = createReadinessProbe(store, clock);
  const { readiness } = probe;
  const { app, slackApi, authTestOnce, httpReceiver, onSocketState, closeConnections, gate, acks, postResponse, healthRoutes } = createSlackApp({
    slack,
    logger,
    readiness,
    clock,
    telemetry,
    metricsToken: settings.telemetry?.metricsToken,
    ...(overrides.slackRetryConfig ? { slackRetryConfig: overrides.slackRetryConfig } : {}),
    ...(overrides.slackCallTimeoutMs ? { slackCallTimeoutMs: overrides.slackCallTimeoutMs } : {}),
    ...(overrides.receiver ? { receiver: overrides.receiver } : {}),
  });
  const auditor = observeAuditor(createAuditor({
    store: store.audit,
    logger: logger.child({ component: 'audit' }),
    slack: slackApi,
    ...(settings.auditChannel ? { auditChannel: settings.auditChannel } : {}),
    clock,
  }), telemetry);
  // A file caught mid-save is read again shortly; stop() ends the wait.
  const policyRetries = new AbortController();
  policySource = createPolicySource({
    initial: initialPolicy,
    ...(settings.access.reloadPolicy ? { load: () => policyOf(settings.access.reloadPolicy!()) } : {}),
    onChange: async (next, changes, trigger, widenings) => {
      const targets = targetsOf(next);
      for (const t of targets) logger.addSecret(t.token);
      accounts.update(targets);
      await auditor.record(policyAuditEntry(next.source, trigger, 'succeeded', changes.join('; '), widenings));
    },
    onRefused: (message, trigger) => auditor.record(policyAuditEntry(path ?? 'ACCESS_POLICY', trigger, 'failed', message.split('\n').slice(1).join(' ').slice(0, 500) || message)),
    logger,
    clock,
    signal: policyRetries.signal,
  });
  const access = tracedAccess(createAccess({
    policy: () => policySource!.current(),
    groupMembers: (id) => slackApi.usergroupMembers(id),
    clock,
    logger,
    ...(overrides.groupCacheMs !== undefined ? { cacheMs: overrides.groupCacheMs } : {}),
  }), telemetry);
  // Reads remember what they showed; the same entry is written at most once a minute. The policy
  // file's inventory names resources too, read from the policy in force (a reload replaces it).
  const known = withInventory(skipRecentlyRemembered(store.known), (account) => policySource!.current().accounts[account ?? '']?.inventory ?? []);
  // What a subscription or digest posts needs its equivalent read's tier in its channel, on its
  // account, under the policy in force at each post (monitor/reads.ts).
  const { channelMay, mayRead } = subscriptionReadChecks({ access, catalog, accountOf });
  // One budget for everything that polls the cloud: watches and subscriptions share it.
  const budget = createRequestBudget({ perMinute: settings.monitor?.requestsPerMinute ?? 1200, clock });
  const { watcher, maintenance, monitor, flow, schedules } = createServices({
    settings, overrides, store, accounts, access, auditor, known, catalog, budget, sealer, clock, logger, slack: slackApi, accountOf, channelMay, traces: watchTraces(telemetry, store.operations), tracing: telemetry.tracing,
  });
  readGauges(telemetry, { store, clock, budget, owner: watcher.owner, holdsLease });
  const steps = createSteps({ store, flow, catalog, accounts, access, auditor, known, clock, logger, slack: slackApi, accountOf, owner: watcher.owner, overrides });
  // The application core: every surface calls it (app/app-core.ts); the listeners only deliver.
  const core = createCore({
    settings, overrides, catalog, accounts, access, defaultAccount: () => currentPolicy().defaultAccount, store, known, auditor, flow, watcher, maintenance, monitor, schedules, steps: steps.core, mayRead, channelMay, clock, logger, slack: slackApi, tracing: telemetry.tracing,
  });
  const { scheduler } = schedules;
  // What listeners do after their ack runs detached (after-ack.ts); stop drains it.
  const afterAck = createAfterAck(logger, overrides.afterAck, afterAckHooks(telemetry));
  registerListeners(app, {
    core,
    afterAck,
    clock,
    logger,
    slack: slackApi,
    postResponse,
    deliveries: store.deliveries,
    ...(overrides.slowNoticeMs !== undefined ? { slowNoticeMs: overrides.slowNoticeMs } : {}),
  });

  let stopUpkeep: (() => void) | undefined;
  let undoLoop: Promise<void> | undefined;
  let reloadTimer: NodeJS.Timeout | undefined;
  const stopping = new AbortController();
  let listening = false;
  const ops = telemetryLifecycle(telemetry, slack.mode === 'socket' ? settings.telemetry : undefined, healthRoutes);
  /** Settles once start-up is past its last step that can take long, or gave up: stop waits for it. */
  let startedUp: Promise<void> | undefined;
  /** A stop came while this awaited: start no further (stop tears down what did start). */
  const halt = () => {
    if (stopping.signal.aborted) throw stoppedWhileStarting();
  };
  /** Everything up to the services' loops; each await is bounded (stop waits for this). */
  const startServices = async () => {
    if (access.unconfigured) {
      logger.warn(
        'No roles are configured, so everyone is a viewer (reads only). Grant more with CLOUD_ADMINS and CLOUD_OPERATORS (Slack user or user group ids), or ACCESS_POLICY for per-channel roles.',
      );
    }
    // A database that cannot be migrated stops start-up here, with its own message.
    await store.ready?.();
    halt();
    // /healthz and /readyz answer while the bot waits for Slack: on PORT (HTTP), on METRICS_PORT (Socket Mode).
    const early = httpReceiver ? await listen(app, slack, httpReceiver) : undefined;
    if (early) {
      listening = true;
      if (early.server) closeConnectionsWhileStopping(early.server, probe.stopped);
      logger.info(`HTTP server up on :${early.port} (/healthz, /readyz); waiting for Slack to answer auth.test`);
    }
    const metrics = await ops.start();
    halt();
    probe.slack('waiting for auth.test');
    await waitForSlack({ authTest: authTestOnce, clock, logger, timeoutMs: slack.startTimeoutMs ?? DEFAULT_SLACK_START_TIMEOUT_MS, signal: stopping.signal });
    await app.init();
    halt();
    gate.open(); // requests that came early (held up to START_HOLD_MS) run now
    // HTTP mode serves from here; Socket Mode once its connection is open (start, below).
    probe.slack(early ? 'ok' : 'connecting to Slack (Socket Mode)');
    await recoverChanges(flow, logger);
    halt();
    // From here on nothing awaits, so a stop finds every loop started and stops it.
    // Every replica sweeps: expired confirmations, and changes a dead replica left running.
    stopUpkeep = startUpkeep(flow, logger, overrides.expirySweepMs ?? 30_000);
    // Changes waiting out an undo delay: on the injected clock, so a restart resumes them from the store.
    undoLoop = runUndoWindow(flow, clock, logger, stopping.signal);
    if (overrides.watchLoop !== false) watcher.start(); // resumes every open watch from the store
    if (overrides.stepLoop !== false) steps.driver.start(); // and every waiting workflow step
    if (overrides.monitorLoop !== false) monitor.start(); // one replica at a time polls the subscriptions (the monitor lease)
    if (overrides.schedulerLoop !== false) scheduler.start(); // every replica; one run per occurrence
    const every = settings.access.config.policyReloadMs ?? 0;
    if (settings.access.reloadPolicy && every > 0) {
      reloadTimer = setInterval(() => {
        policySource!.reload('interval').catch((error: unknown) => logger.error('policy reload failed', { error }));
      }, every);
      reloadTimer.unref();
    }
    return { early, metrics };
  };
  return {
    logger,
    telemetry,
    store,
    accounts,
    policy: policySource,
    reloadPolicy: (trigger) => policySource!.reload(trigger),
    sealer,
    auditor,
    access,
    watcher,
    monitor,
    scheduler,
    budget,
    flow,
    core,
    steps: steps.driver,
    app,
    slackApi,
    async start() {
      const services = startServices();
      startedUp = services.then(() => undefined, () => undefined);
      const { early, metrics } = await services;
      if (early) return early;
      halt();
      // Socket Mode connects last; a stop meanwhile disconnects it (below, if the stop came first).
      listening = true;
      const bound = await listen(app, slack);
      if (stopping.signal.aborted) {
        await app.stop();
        throw stoppedWhileStarting();
      }
      probe.slack('ok');
      // Slack recycles Socket Mode connections; until the client has a new one nothing arrives here.
      onSocketState?.((open) => probe.slack(open ? 'ok' : 'reconnecting to Slack (Socket Mode)'));
      return { ...bound, ...metrics };
    },
    settled: () => afterAck.idle(),
    async stop() {
      if (probe.stopped()) return;
      probe.stop(); // /readyz: 503 from here on
      gate.close(); // a request that still comes is answered "restarting, nothing was sent"
      stopping.abort(); // a start-up still waiting for Slack gives up
      await startedUp; // a start-up under way goes no further than its next step, so what started is stopped below
      stopUpkeep?.();
      if (reloadTimer) clearInterval(reloadTimer);
      // Socket Mode: off the socket once the requests already here are acked (the acks travel on
      // it), so Slack sends new ones to a replica that serves; the answers after an ack use the
      // Web API and response_urls, which stay open through the drain below.
      const offSocket = slack.mode === 'socket' && listening
        ? acks.sent().then(() => app.stop()).catch((error: unknown) => logger.warn('could not close the Socket Mode connection', { error }))
        : undefined;
      // Every loop stops claiming at once (each stop() flags it before its first await); then
      // what they took finishes and leases are released, so the other replica takes the
      // watches, the monitor and schedule runs over at once; meanwhile answers and changes
      // already taken finish, within SHUTDOWN_TIMEOUT_MS.
      const [, settled] = await Promise.all([
        Promise.all([undoLoop, watcher.stop(), steps.driver.stop(), monitor.stop(), scheduler.stop()]),
        settleListeners(afterAck, logger, settings.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS),
        listenerDelay(httpReceiver && listening ? (settings.shutdownDelayMs ?? 0) : 0),
        offSocket,
      ]);
      if (listening && !offSocket) await app.stop();
      await auditor.flush(); // audit posts still queued go out before the database closes
      await closeConnections().catch(() => {}); // the Slack calls' keep-alive sockets
      policyRetries.abort();
      await accounts.close();
      // Past the bound, requests still waiting on the cloud are cut (close would wait for them).
      await (settled ? ownPool?.close() : ownPool?.destroy());
      await ops.stop();
      await store.close();
    },
  };
}
