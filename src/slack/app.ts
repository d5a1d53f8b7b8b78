/**
 * The Bolt app: a receiver for the chosen mode, our logger, and the listeners. What the
 * listeners work with (change flow, watcher, access, auditor) is built by src/runtime.ts;
 * nothing here knows about particular operations either, they come from the catalog.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel, SocketModeReceiver, type Receiver, type webApi } from '@slack/bolt';
import type { SlackApi } from '../chat/slack-api.js';
import type { SlackConfig } from '../config.js';
import { boltLogger, type Logger } from '../log.js';
import { registerChanges, type ChangeHandlerDeps } from './register-changes.js';
import { registerCommand, type CommandDeps } from './register-command.js';
import { registerPager, type PagerDeps } from './register-pager.js';
import { registerWatchActions, type WatchCommandDeps } from './watch-commands.js';
import { slackApiFromClient } from './web-client-api.js';

export type BoltApp = InstanceType<typeof App>;

export interface SlackAppOptions {
  slack: SlackConfig;
  logger: Logger;
  /** WebClient retry policy override (tests use @slack/web-api's rapidRetryPolicy). */
  slackRetryConfig?: webApi.RetryOptions;
  /** A receiver of our own instead of Socket Mode or HTTP: the local shell's (mode `shell`). */
  receiver?: Receiver;
}

export interface SlackApp {
  app: BoltApp;
  /** The Web API as the rest of the bot uses it (posting, updating, opening views). */
  slackApi: SlackApi;
}

/** The Bolt app and its receiver, listeners not registered yet (deferred initialization). */
export function createSlackApp(opts: SlackAppOptions): SlackApp {
  const { slack } = opts;
  const logger = boltLogger(opts.logger.child({ component: 'bolt' }));
  const clientOptions = {
    ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
    ...(opts.slackRetryConfig ? { retryConfig: opts.slackRetryConfig } : {}),
  };
  const health = [{ path: '/healthz', method: 'GET', handler: (_req: unknown, res: import('node:http').ServerResponse) => res.end('ok') }];

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
  return { app, slackApi: slackApiFromClient(app.client) };
}

/** Everything the listeners need, as src/runtime.ts assembles it. */
export type ListenerDeps = CommandDeps & PagerDeps & ChangeHandlerDeps & WatchCommandDeps;

/** Registers every listener of the bot, and the last-resort error handler. */
export function registerListeners(app: BoltApp, deps: ListenerDeps): void {
  registerCommand(app, deps);
  registerPager(app, deps);
  registerChanges(app, deps);
  registerWatchActions(app, deps);
  app.error(async (error) => {
    deps.logger.error('unhandled error in a Slack handler', { error });
  });
}

/** Starts receiving; in HTTP mode resolves with the port actually bound (port 0 in tests). */
export async function listen(app: BoltApp, slack: SlackConfig): Promise<{ port?: number }> {
  const server = (await app.start(slack.port)) as unknown;
  if (slack.mode === 'http' && server && typeof (server as Server).address === 'function') {
    const address = (server as Server).address() as AddressInfo | null;
    return { port: address?.port ?? slack.port };
  }
  return {};
}
