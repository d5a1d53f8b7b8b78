/**
 * The I/O floor of the ack-latency section (issue 22): a bare Bolt app, set up as the bare one is,
 * that acks each `/cloud` command and then makes the very requests the bot makes to answer it —
 * the same cloud endpoints, `views.open` and `views.update` for a form, one response_url post for
 * a read — on keep-alive undici Agents, with no parsing, access, store, audit or rendering.
 * Its CPU per command is what any bot answering this mix over HTTP pays at least; the bot's CPU
 * over the floor's is the part its own code adds.
 *
 * The endpoints per command are the bot's as the sandbox recorded them (bench/lib/ack-generator.ts
 * COMMANDS); test/e2e/bench-floor.test.ts holds the two together, so the floor cannot drift
 * from what the bot asks.
 *
 * `via: 'bolt-client'` makes the same requests the way Bolt's documentation writes them:
 * `client.views.open` / `client.views.update` (Bolt's WebClient) and `respond()` for the
 * response_url. It answers what a Bolt app written the usual way pays for this mix before it
 * does anything of its own; the bot posts its Slack calls directly (src/slack/slack-http.ts).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel, type Logger } from '@slack/bolt';
import { Agent, request } from 'undici';
import { COMMANDS } from './ack-generator.js';

type CommandText = (typeof COMMANDS)[number]['text'];

/** The cloud requests the bot makes for each command of the mix (GET, under the API's base URL). */
export const FLOOR_CLOUD_PATHS: Record<CommandText, readonly string[]> = {
  'account usage': ['/account/usage'],
  'server reinstall 101': ['/ssh-keys'],
  'server status 101': ['/servers/101/status'],
  'ip reserve': ['/reserved-ips/subnets'],
  'plan list': ['/plans'],
  'worker deploy': ['/workers/locations', '/workers/templates'],
};

export interface FloorWorld {
  slackUrl: string;
  cloudBaseUrl: string;
  cloudToken: string;
  botToken: string;
  signingSecret: string;
}

/** How the floor talks to Slack: undici posts as the bot does (the default), or Bolt's own client and `respond()`. */
export type FloorVia = 'undici' | 'bolt-client';

export interface FloorApp {
  url: string;
  stop(): Promise<void>;
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, setLevel() {}, getLevel: () => LogLevel.INFO, setName() {} };

/** A small modal (what the bot's loading view and filled form stand for; Block Kit-valid). */
const modal = (text: string) => ({
  type: 'modal',
  callback_id: 'floor',
  title: { type: 'plain_text', text: 'Floor' },
  close: { type: 'plain_text', text: 'Cancel' },
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
});

export async function startFloorApp(world: FloorWorld, via: FloorVia = 'undici'): Promise<FloorApp> {
  // The bot's own settings: one Agent for Slack (src/slack/light-fetch.ts), one for the cloud.
  const slackAgent = new Agent({ keepAliveTimeout: 30_000, connections: 64 });
  const cloudAgent = new Agent({ keepAliveTimeout: 30_000 });
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const cloud = async (path: string): Promise<unknown> => {
    const res = await request(world.cloudBaseUrl + path, { dispatcher: cloudAgent, headers: { authorization: `Bearer ${world.cloudToken}`, accept: 'application/json' } });
    return res.body.json();
  };
  const slack = async (method: string, params: unknown): Promise<{ view?: { id?: string } }> => {
    const res = await request(world.slackUrl + method, { dispatcher: slackAgent, method: 'POST', headers: { authorization: `Bearer ${world.botToken}`, ...json }, body: JSON.stringify(params) });
    return (await res.body.json()) as { view?: { id?: string } };
  };
  const app = new App({
    token: world.botToken,
    receiver: new HTTPReceiver({ signingSecret: world.signingSecret, endpoints: '/slack/events', logger: quiet, logLevel: LogLevel.INFO, processBeforeResponse: false }),
    logger: quiet,
    logLevel: LogLevel.INFO,
    clientOptions: { slackApiUrl: world.slackUrl },
    deferInitialization: true,
    convoStore: false,
  });
  /** The two ways of reaching Slack: a Web API call and a response_url post. */
  interface SlackWay {
    call(method: 'views.open' | 'views.update', params: Record<string, unknown>): Promise<{ view?: { id?: string } }>;
    respond(text: string): Promise<void>;
  }
  const answer = async (text: string, triggerId: string, way: SlackWay): Promise<void> => {
    const paths = FLOOR_CLOUD_PATHS[text as CommandText] ?? [];
    const kind = COMMANDS.find((c) => c.text === text)?.kind;
    if (kind === 'read') {
      const data = await Promise.all(paths.map(cloud));
      await way.respond(JSON.stringify(data).slice(0, 300));
      return;
    }
    const opened = await way.call('views.open', { trigger_id: triggerId, view: modal('Reading the choices…') });
    const data = await Promise.all(paths.map(cloud));
    await way.call('views.update', { view_id: opened.view?.id, view: modal(JSON.stringify(data).slice(0, 300)) });
  };
  app.command('/cloud', async ({ ack, command, client, respond }) => {
    await ack();
    const way: SlackWay =
      via === 'undici'
        ? {
            call: slack,
            respond: async (text) => {
              const res = await request(command.response_url, { dispatcher: slackAgent, method: 'POST', headers: json, body: JSON.stringify({ response_type: 'ephemeral', text }) });
              await res.body.dump();
            },
          }
        : {
            // Bolt's own client (WebClient: its queue, retries and form encoding) and respond().
            call: (method, params) => (method === 'views.open' ? client.views.open(params as never) : client.views.update(params as never)),
            respond: async (text) => void (await respond({ response_type: 'ephemeral', text })),
          };
    // After the ack, detached, as the bot's work is (src/slack/after-ack.ts).
    setImmediate(() => void answer(command.text, command.trigger_id, way).catch(() => {}));
  });
  await app.init();
  const server = (await app.start({ port: 0, host: '127.0.0.1' })) as unknown as Server;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`,
    stop: async () => {
      await app.stop();
      await slackAgent.close();
      await cloudAgent.close();
    },
  };
}
