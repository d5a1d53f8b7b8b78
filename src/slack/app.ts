/**
 * The Bolt app: a receiver for the chosen mode, our logger, and the handlers. Nothing here
 * knows about particular operations; they come from the catalog.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel, SocketModeReceiver } from '@slack/bolt';
import type { CloudClient } from '../cloud/cloud-client.js';
import type { Clock } from '../clock.js';
import type { SlackConfig } from '../config.js';
import { boltLogger, type Logger } from '../log.js';
import type { Catalog } from '../operations/catalog.js';
import { registerCommand } from './register-command.js';
import { registerPager } from './register-pager.js';

export interface BotDeps {
  slack: SlackConfig;
  cloud: CloudClient;
  clock: Clock;
  logger: Logger;
  catalog: Catalog;
  slowNoticeMs?: number;
  operationTimeoutMs?: number;
  /** WebClient retry policy override (tests use @slack/web-api's rapidRetryPolicy). */
  slackRetryConfig?: import('@slack/bolt').webApi.RetryOptions;
}

export interface Bot {
  app: InstanceType<typeof App>;
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

  const receiver =
    slack.mode === 'socket'
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
        });

  const app = new App({
    token: slack.botToken,
    receiver,
    logger,
    logLevel: LogLevel.INFO,
    clientOptions,
    deferInitialization: true,
  });

  registerCommand(app, deps);
  registerPager(app, deps);
  app.error(async (error) => {
    deps.logger.error('unhandled error in a Slack handler', { error });
  });

  return {
    app,
    async start() {
      await app.init();
      const server = (await app.start(slack.port)) as unknown;
      if (slack.mode === 'http' && server && typeof (server as Server).address === 'function') {
        const address = (server as Server).address() as AddressInfo | null;
        return { port: address?.port ?? slack.port };
      }
      return {};
    },
    async stop() {
      await app.stop();
    },
  };
}
