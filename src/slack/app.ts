/**
 * The Bolt app: a receiver for the chosen mode, our logger, and the listeners. The listeners
 * translate payloads for the application core (src/app/app-core.ts, built by src/runtime.ts)
 * and deliver its answers; nothing here knows about particular operations or access rules.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTPReceiver, LogLevel, SocketModeReceiver, webApi, type App, type Receiver } from '@slack/bolt';
import { systemClock, type Clock } from '../clock.js';
import type { SlackApi } from '../chat/slack-api.js';
import type { AppCore } from '../app/app-core.js';
import type { SlackConfig } from '../config.js';
import { boltLogger, type Logger } from '../log.js';
import { registerChanges, type ChangeHandlerDeps } from './register-changes.js';
import { routeListeners } from './listener-routes.js';
import { registerCommand, type CommandDeps } from './register-command.js';
import { registerPager, type PagerDeps } from './register-pager.js';
import { registerWatchActions, type WatchActionDeps } from './register-watch-actions.js';
import { registerAlertActions, type AlertActionDeps } from './register-alert-actions.js';
import { registerHome, type HomeDeps } from './register-home.js';
import { registerShortcut, type ShortcutDeps } from './register-shortcut.js';
import { registerUnfurls, type UnfurlListenerDeps } from './register-unfurls.js';
import { registerSteps, type StepListenerDeps } from './register-steps.js';
import { slackApiDirect } from './slack-api-direct.js';
import { createSlackHttp } from './slack-http.js';
import { createLightFetch } from './light-fetch.js';
import { responseUrlPoster, type PostToResponseUrl } from './response-url.js';
import { handlerFailureReply } from './respond-privately.js';
import { rejectedToken } from './wait-for-slack.js';
import { skipRetriedDeliveries, type RetriedDeliveryDeps } from './retried-deliveries.js';
import { metricsHandler, METRICS_PATH, observeSlackCalls, type Telemetry } from '../telemetry/index.js';
import { createPendingAcks, type PendingAcks } from './pending-acks.js';
import { createStartGate, GatedApp, httpProcessEventError, socketProcessEventError, type StartGate } from './start-gate.js';

export type BoltApp = InstanceType<typeof App>;

export interface SlackAppOptions {
  slack: SlackConfig;
  logger: Logger;
  /** Retry policy override for the WebClient and slack-http.ts (tests keep the tries, without the waits). */
  slackRetryConfig?: webApi.RetryOptions;
  /** Timeout per call override, both clients (default SLACK_CALL_TIMEOUT_MS). */
  slackCallTimeoutMs?: number;
  /** A receiver of our own instead of Socket Mode or HTTP: the local shell's (mode `shell`). */
  receiver?: Receiver;
  /** What `/readyz` reports; `/healthz` answers at once whatever it says. */
  readiness?: () => Promise<Readiness>;
  /** Times how long a request that came before the bot was ready is held (start-gate.ts). */
  clock?: Clock;
  /** Metrics (`/metrics` in HTTP mode, behind `metricsToken` when set) and traces (issue 24). */
  telemetry?: Telemetry;
  metricsToken?: string | undefined;
}

export interface Readiness {
  ready: boolean;
  /** One word or short reason per dependency, e.g. `{ store: 'ok', slack: 'waiting for auth.test' }`. */
  checks: Record<string, string>;
}

export interface SlackApp {
  app: BoltApp;
  /** The Web API as the rest of the bot uses it (posting, updating, opening views). */
  slackApi: SlackApi;
  /** One `auth.test` with no retries and a short timeout: start-up waits on this (wait-for-slack.ts). */
  authTestOnce: () => Promise<unknown>;
  /** HTTP mode: the receiver, started before Slack answers so `/healthz` is up during the wait. */
  httpReceiver?: HTTPReceiver;
  /**
   * Socket Mode: whether its connection is open, told as it changes (Slack closes connections
   * now and then and the client opens a new one); undefined in HTTP mode.
   */
  onSocketState?: (listener: (open: boolean) => void) => void;
  /** Closes the connections of the Slack calls (after the app stopped). */
  closeConnections: () => Promise<void>;
  /** Holds requests until start-up opens it, after `app.init()` (start-gate.ts). */
  gate: StartGate;
  /** Posts to a response_url outside a listener's `respond` (the error handler), on the bot's own Agent. */
  postResponse: PostToResponseUrl;
  /** Requests received and not acked yet (a Socket Mode stop disconnects once they were). */
  acks: PendingAcks;
  /** `/healthz` and `/readyz`, for Socket Mode's own listener (HTTP mode serves them on its port). */
  healthRoutes: ReturnType<typeof healthRoutes>;
}

/**
 * Web API calls answer a person in a chat, so they are bounded in seconds: each call times out
 * after 5 s and is tried at most three times (0.5 s, then 1 s apart; a 429's Retry-After is
 * honoured within those tries) — not the WebClient's default of ten retries over half an hour.
 */
export const SLACK_CALL_TIMEOUT_MS = 5000;
export const SLACK_RETRY: webApi.RetryOptions = { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 1000, randomize: false };

/** The Bolt app and its receiver, listeners not registered yet (deferred initialization). */
export function createSlackApp(opts: SlackAppOptions): SlackApp {
  const { slack } = opts;
  const logger = boltLogger(opts.logger.child({ component: 'bolt' }));
  // Every Slack call (Web API, `respond`) on one keep-alive undici Agent, not Node's fetch (light-fetch.ts).
  const light = createLightFetch();
  const clientOptions = {
    ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
    fetch: light.fetch,
    timeout: opts.slackCallTimeoutMs ?? SLACK_CALL_TIMEOUT_MS,
    retryConfig: opts.slackRetryConfig ?? SLACK_RETRY,
  };
  const probes = healthRoutes(opts.readiness);
  const health = [
    ...Object.entries(probes).map(([path, handler]) => ({ path, method: 'GET', handler })),
    ...(opts.telemetry ? [{ path: METRICS_PATH, method: 'GET', handler: metricsHandler(opts.telemetry.metrics, opts.metricsToken) }] : []),
  ];

  if (slack.mode === 'shell' && !opts.receiver) throw new Error('shell mode needs the shell’s receiver');
  const receiver =
    opts.receiver ??
    (slack.mode === 'socket'
      ? new SocketModeReceiver({
          appToken: slack.appToken!,
          logger,
          logLevel: LogLevel.INFO,
          // The socket client opens its connection through the Web API (apps.connections.open),
          // so it must use the same API URL as the app's own client.
          installerOptions: { clientOptions },
          processEventErrorHandler: socketProcessEventError,
        })
      : new HTTPReceiver({
          signingSecret: slack.signingSecret!,
          endpoints: '/slack/events',
          logger,
          logLevel: LogLevel.INFO,
          customRoutes: health,
          // Ack is sent as soon as a handler calls ack(); work continues after (never before).
          processBeforeResponse: false,
          processEventErrorHandler: httpProcessEventError,
        }));

  // Requests that come before Slack answered auth.test wait for `app.init()` (start-gate.ts).
  const gate = createStartGate(opts.clock ?? systemClock);
  // A response_url answer outside `respond` goes through the same fetch and Agent as every Slack call.
  const postResponse = responseUrlPoster(light.fetch, clientOptions.timeout);
  const acks = createPendingAcks();
  const gateDeps = { gate, acks, logger: opts.logger, slack: () => slackApi, postResponse, ...(opts.telemetry ? { telemetry: opts.telemetry } : {}) };
  const app = new GatedApp({
    token: slack.botToken,
    receiver,
    logger,
    logLevel: LogLevel.INFO,
    clientOptions,
    deferInitialization: true,
    // The error handler gets the request's body, so it can still answer the person.
    extendedErrorHandler: true,
    // No listener keeps conversation state; Bolt's default store costs an Error per event.
    convoStore: false,
  }, gateDeps);
  const probe = new webApi.WebClient(slack.botToken, {
    ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
    timeout: SLACK_CALL_TIMEOUT_MS,
    retryConfig: { retries: 0 },
    // wait-for-slack.ts says what failed and what happens next; the client's own
    // "http request failed" warning would only repeat it without the plan.
    logger: { ...logger, debug: () => {}, info: () => {}, warn: () => {} },
  });
  // The bot's own calls skip the WebClient (slack-http.ts: same rules, far less CPU per call);
  // Bolt keeps its client for its internals and the listeners' `client`.
  const http = createSlackHttp({
    token: slack.botToken,
    ...(slack.apiUrl ? { apiUrl: slack.apiUrl } : {}),
    dispatcher: light.agent,
    timeoutMs: clientOptions.timeout,
    retry: clientOptions.retryConfig,
  });
  const slackApi = slackApiDirect(opts.telemetry ? observeSlackCalls(http, opts.telemetry) : http);
  return {
    app,
    slackApi,
    authTestOnce: () => probe.auth.test(),
    ...(receiver instanceof HTTPReceiver ? { httpReceiver: receiver } : {}),
    ...(receiver instanceof SocketModeReceiver
      ? {
          // The client's own events (@slack/socket-mode State): 'connected' once Slack said hello.
          onSocketState: (listener: (open: boolean) => void) => {
            receiver.client.on('connected', () => listener(true));
            receiver.client.on('disconnected', () => listener(false));
            receiver.client.on('reconnecting', () => listener(false));
          },
        }
      : {}),
    closeConnections: light.close,
    postResponse,
    gate,
    acks,
    healthRoutes: probes,
  };
}

/** `/healthz` and `/readyz`: on PORT in HTTP mode, on Socket Mode's own listener (METRICS_PORT). */
export function healthRoutes(readiness: SlackAppOptions['readiness']): Record<'/healthz' | '/readyz', (req: IncomingMessage, res: ServerResponse) => void> {
  return {
    // Liveness: the process answers; nothing is awaited.
    '/healthz': (_req, res) => res.end('ok'),
    '/readyz': (_req, res) => void readyz(readiness, res),
  };
}

async function readyz(readiness: SlackAppOptions['readiness'], res: ServerResponse): Promise<void> {
  let body: Readiness;
  try {
    body = readiness ? await readiness() : { ready: true, checks: {} };
  } catch (e) {
    body = { ready: false, checks: { readiness: e instanceof Error ? e.message : String(e) } };
  }
  res.statusCode = body.ready ? 200 : 503;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}

/**
 * Everything the listeners need, as src/runtime.ts assembles it: the application core (which
 * decides everything) and what delivering its answers takes — the Web API, the clock for slow
 * notices, the after-ack runner, and the shared record of deliveries taken.
 */
export type ListenerDeps = CommandDeps & PagerDeps & ChangeHandlerDeps & WatchActionDeps & AlertActionDeps & HomeDeps & RetriedDeliveryDeps & ShortcutDeps & UnfurlListenerDeps & StepListenerDeps & { core: AppCore; slack: SlackApi; postResponse: PostToResponseUrl };

/** Registers every listener of the bot, and the last-resort error handler. */
export function registerListeners(app: BoltApp, deps: ListenerDeps): void {
  app.use(skipRetriedDeliveries(deps)); // a retry of a delivery already taken goes no further
  // One Bolt listener per kind of request, routing by id (listener-routes.ts says why).
  routeListeners(app, (routes) => {
    registerCommand(routes, deps);
    registerPager(routes, deps);
    registerChanges(routes, deps);
    registerWatchActions(routes, deps);
    registerAlertActions(routes, deps);
    registerHome(routes, deps);
    registerShortcut(routes, deps);
    registerUnfurls(routes, deps);
    registerSteps(routes, deps);
  });
  // Last resort: whatever a listener did not answer itself is logged with a reference and
  // told to the person through the response_url (or privately in the channel).
  app.error(async ({ error, body }: { error: Error; body?: unknown }) => {
    const cause = (error as { original?: unknown }).original ?? error;
    const b = (body ?? {}) as { response_url?: unknown; command?: unknown; user_id?: unknown; user?: { id?: unknown }; channel_id?: unknown; channel?: { id?: unknown } };
    const reply = handlerFailureReply(deps.logger, typeof b.command === 'string' ? b.command : 'that action', cause);
    try {
      if (await deps.postResponse(b.response_url, reply)) return;
      const user = typeof b.user_id === 'string' ? b.user_id : b.user?.id;
      const channel = typeof b.channel_id === 'string' ? b.channel_id : b.channel?.id;
      if (typeof user === 'string' && typeof channel === 'string') await deps.slack.postEphemeral({ channel, user, text: reply.text, blocks: reply.blocks });
    } catch (e) {
      deps.logger.warn('could not tell the person about a failed handler', { error: e });
    }
  });
}

/**
 * Starts receiving; in HTTP mode resolves with the port actually bound (port 0 in tests).
 * HTTP mode starts the receiver itself (Bolt's `app.start` refuses before `init`), so that
 * `/healthz` and `/readyz` answer while the bot still waits for Slack.
 */
export async function listen(app: BoltApp, slack: SlackConfig, httpReceiver?: HTTPReceiver): Promise<{ port?: number; server?: Server }> {
  // Socket Mode opens its connection with the app token: a refused one is named as such.
  const started = httpReceiver ? httpReceiver.start(slack.port) : app.start(slack.port);
  const server = (await started.catch((e: unknown) => {
    throw (slack.mode === 'socket' ? rejectedToken(e, 'SLACK_APP_TOKEN', 'apps.connections.open') : undefined) ?? e;
  })) as unknown;
  if (slack.mode === 'http' && server && typeof (server as Server).address === 'function') {
    const address = (server as Server).address() as AddressInfo | null;
    return { port: address?.port ?? slack.port, server: server as Server };
  }
  return {};
}
