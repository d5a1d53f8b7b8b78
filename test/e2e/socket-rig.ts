/**
 * The bot in Socket Mode over loopback: the sandbox cloud, the fake Web API, a fake Socket
 * Mode server that the bot connects to through apps.connections.open, and response_url
 * endpoints. `close` stops them all (whatever started).
 */
import { webApi } from '@slack/bolt';
import { createRuntime, type Runtime, type RuntimeSettings } from '../../src/runtime.js';
import { createSandbox, type ListeningSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { createFakeSocket, type FakeSocket } from '../rig/fake-socket.js';
import { createResponseUrls, type ResponseUrls } from '../rig/response-url.js';
import { APP_TOKEN, BOT_TOKEN } from '../rig/workspace.js';

export interface SocketRig {
  sandbox: Sandbox;
  cloudServer: ListeningSandbox;
  slack: FakeSlack;
  socket: FakeSocket;
  responses: ResponseUrls;
  bot: Runtime;
  /** The metrics listener's port, when the rig was given telemetry settings. */
  metricsPort: number | undefined;
  close(): Promise<void>;
}

export async function startSocketRig(options: { cloudToken: string; admins?: string[]; telemetry?: RuntimeSettings['telemetry']; log?: RuntimeSettings['log'] }): Promise<SocketRig> {
  const sandbox = createSandbox({ token: options.cloudToken });
  const cloudServer = await sandbox.listen();
  const slack = await createFakeSlack();
  const socket = await createFakeSocket({ slack });
  const responses = await createResponseUrls();
  const bot = createRuntime(
    {
      slack: { mode: 'socket', botToken: BOT_TOKEN, appToken: APP_TOKEN, signingSecret: undefined, port: 0, apiUrl: slack.url },
      cloud: { baseUrl: cloudServer.baseUrl, token: sandbox.token },
      databasePath: ':memory:',
      access: { config: { admins: options.admins ?? [], operators: [], viewers: undefined, channels: undefined, policyFile: undefined, approval: undefined } },
      log: options.log ?? { sink: () => {} },
      ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    },
    { slackRetryConfig: webApi.retryPolicies.rapidRetryPolicy },
  );
  const close = async () => {
    await bot.stop();
    await socket.close();
    await cloudServer.close();
    await slack.close();
    await responses.close();
  };
  const { metricsPort } = await bot.start();
  await socket.waitForConnection();
  return { sandbox, cloudServer, slack, socket, responses, bot, metricsPort, close };
}
