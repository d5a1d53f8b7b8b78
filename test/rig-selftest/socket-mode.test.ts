import { App, SocketModeReceiver } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { createFakeSocket, type FakeSocket } from '../rig/fake-socket.js';
import { recordingLogger } from '../rig/recording-logger.js';
import { blockSuggestionPayload, slashCommandFields } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { APP_TOKEN, BOT_TOKEN } from '../rig/workspace.js';

/** A bare Bolt app in Socket Mode: no cloudbot code, only the rig. */
function socketApp(slack: FakeSlack): App {
  return new App({
    token: BOT_TOKEN,
    appToken: APP_TOKEN,
    socketMode: true,
    logger: recordingLogger(),
    clientOptions: { slackApiUrl: slack.url },
  });
}

describe('fake Socket Mode server with a real Bolt SocketModeReceiver', () => {
  let slack: FakeSlack | undefined;
  let socket: FakeSocket | undefined;
  let app: App | undefined;

  afterEach(async () => {
    await app?.stop();
    await socket?.close();
    await slack?.close();
    app = socket = slack = undefined;
  });

  async function start(configure: (app: App) => void): Promise<{ slack: FakeSlack; socket: FakeSocket }> {
    slack = await createFakeSlack();
    socket = await createFakeSocket({ slack });
    app = socketApp(slack);
    configure(app);
    await app.start();
    await socket.waitForConnection();
    return { slack, socket };
  }

  it('connects through apps.connections.open with the app-level token', async () => {
    const { slack, socket } = await start(() => {});
    const open = slack.callsTo('apps.connections.open');
    expect(open).toHaveLength(1);
    expect(open[0]!.token).toBe(APP_TOKEN);
    expect(String(open[0]!.response.url)).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=/);
    expect(socket.openConnections()).toBe(1);
  });

  it('delivers a slash command envelope; the app acks it and answers through the Web API', async () => {
    const { slack, socket } = await start((a) =>
      a.command('/cloud', async ({ ack, command, client }) => {
        await ack();
        await client.chat.postMessage({ channel: command.channel_id, text: `you said: ${command.text}` });
      }),
    );
    const ack = await socket.slashCommand(slashCommandFields({ text: 'server status 42' }));
    expect(ack.payload).toBeUndefined();
    const message = await waitFor(() => slack.messages.all()[0]);
    expect(message.text).toBe('you said: server status 42');
    expect(slack.callsTo('chat.postMessage')[0]!.token).toBe(BOT_TOKEN);
  });

  it('records an ack that carries a response payload (block_suggestion options)', async () => {
    const { socket } = await start((a) =>
      a.options('server_pick', async ({ ack, options }) => {
        await ack({ options: [{ text: { type: 'plain_text', text: `srv-${options.value}` }, value: '42' }] });
      }),
    );
    const ack = await socket.interactive(blockSuggestionPayload({ actionId: 'server_pick', blockId: 'b1', value: 'web' }));
    expect(ack.payload).toEqual({ options: [{ text: { type: 'plain_text', text: 'srv-web' }, value: '42' }] });
  });

  it('passes retry_attempt/retry_reason of a redelivered envelope through to the app', async () => {
    const seen: Array<{ retryNum?: number; retryReason?: string }> = [];
    const { socket } = await start((a) =>
      a.command('/cloud', async ({ ack, context }) => {
        seen.push({ retryNum: context.retryNum, retryReason: context.retryReason });
        await ack();
      }),
    );
    await socket.slashCommand(slashCommandFields({ text: 'help' }), { retryAttempt: 1, retryReason: 'timeout' });
    expect(seen).toEqual([{ retryNum: 1, retryReason: 'timeout' }]);
  });
});

describe('fake Socket Mode server: Slack asks the client to reconnect', () => {
  it('the client fetches a new URL and says hello again', async () => {
    const slack = await createFakeSlack();
    const socket = await createFakeSocket({ slack });
    // A receiver of its own only to shorten the reconnect delay (clientPingTimeout × failures).
    const receiver = new SocketModeReceiver({
      appToken: APP_TOKEN,
      clientPingTimeout: 200,
      logger: recordingLogger(),
      installerOptions: { clientOptions: { slackApiUrl: slack.url } },
    });
    const app = new App({ token: BOT_TOKEN, receiver, logger: recordingLogger(), clientOptions: { slackApiUrl: slack.url } });
    app.command('/cloud', async ({ ack }) => ack());
    try {
      await app.start();
      await socket.waitForConnection();
      socket.requestDisconnect('refresh_requested');
      await waitFor(() => slack.callsTo('apps.connections.open').length === 2 && socket.openConnections() === 1, { timeoutMs: 3000 });
      expect((await socket.slashCommand(slashCommandFields({ text: 'help' }))).envelope_id).toEqual(expect.any(String));
    } finally {
      await app.stop();
      await socket.close();
      await slack.close();
    }
  });
});
