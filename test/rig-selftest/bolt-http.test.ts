import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type BlockAction, type ButtonAction } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { postSigned } from '../rig/http.js';
import {
  blockActionsPayload, blockSuggestionPayload, FORM_CONTENT_TYPE, slashCommandBody, viewSubmissionPayload,
} from '../rig/payloads.js';
import { recordingLogger } from '../rig/recording-logger.js';
import { createResponseUrls, type ResponseUrls } from '../rig/response-url.js';
import { createSlackSender, type SlackSender } from '../rig/slack-sender.js';
import { waitFor } from '../rig/wait-for.js';
import { BOB, BOT_TOKEN, OPS_CHANNEL, SIGNING_SECRET } from '../rig/workspace.js';

/**
 * A bare Bolt app with its HTTP receiver, driven only by the rig: proves the signed bodies
 * are what Bolt expects and that its client talks to the fake Slack.
 */
describe('the rig against a real Bolt HTTP receiver', () => {
  let slack: FakeSlack;
  let responses: ResponseUrls;
  let app: App;
  let eventsUrl: string;
  let send: SlackSender;

  beforeEach(async () => {
    slack = await createFakeSlack();
    responses = await createResponseUrls();
    app = new App({ token: BOT_TOKEN, signingSecret: SIGNING_SECRET, logger: recordingLogger(), clientOptions: { slackApiUrl: slack.url } });
    app.command('/cloud', async ({ ack, command, respond, client }) => {
      await ack();
      if (command.text === 'status') await respond({ response_type: 'ephemeral', text: `hi <@${command.user_id}>` });
      if (command.text === 'post') {
        await client.chat.postMessage({
          channel: command.channel_id,
          text: 'Confirm?',
          blocks: [{ type: 'actions', block_id: 'c', elements: [{ type: 'button', action_id: 'confirm', value: 'op-1', text: { type: 'plain_text', text: 'Confirm' } }] }],
        });
      }
    });
    app.action<BlockAction<ButtonAction>>('confirm', async ({ ack, body, client, action }) => {
      await ack();
      await client.chat.update({ channel: body.channel!.id, ts: body.message!.ts, text: `confirmed ${action.value} by <@${body.user.id}>`, blocks: [] });
    });
    app.view('form', async ({ ack, view }) => {
      const port = view.state.values.port?.port?.value;
      await ack({ response_action: 'errors', errors: { port: `bad port ${port}` } });
    });
    app.options('pick', async ({ ack }) => ack({ options: [{ text: { type: 'plain_text', text: 'one' }, value: '1' }] }));
    const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
    eventsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
    send = createSlackSender(eventsUrl, { slack });
  });

  afterEach(async () => {
    await app.stop();
    await responses.close();
    await slack.close();
  });

  it('acks a signed slash command and answers through response_url', async () => {
    const responseUrl = responses.next();
    const res = await send.command({ text: 'status', responseUrl });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const [post] = await waitFor(() => responses.postsTo(responseUrl).length > 0 && responses.postsTo(responseUrl));
    expect(post!.body).toEqual({ response_type: 'ephemeral', text: 'hi <@UALICE0001>' });
  });

  it('answers 401 to a bad signature or a stale timestamp, and runs no handler', async () => {
    const responseUrl = responses.next();
    const body = slashCommandBody({ text: 'status', responseUrl });
    expect((await postSigned(eventsUrl, body, FORM_CONTENT_TYPE, { signingSecret: SIGNING_SECRET, badSignature: true })).status).toBe(401);
    const stale = Math.floor(Date.now() / 1000) - 600;
    expect((await postSigned(eventsUrl, body, FORM_CONTENT_TYPE, { signingSecret: SIGNING_SECRET, timestamp: stale })).status).toBe(401);
    expect(responses.posts).toEqual([]);
  });

  it('a button in a message the app posted round-trips: click → chat.update of that message', async () => {
    await send.command({ text: 'post' });
    const message = await waitFor(() => slack.messages.inChannel(OPS_CHANNEL.id)[0]);
    const res = await send.interaction(blockActionsPayload({ actionId: 'confirm', message, userId: BOB.id }));
    expect(res.status).toBe(200);
    await waitFor(() => slack.messages.get(OPS_CHANNEL.id, message.ts)?.text.startsWith('confirmed'));
    expect(slack.messages.get(OPS_CHANNEL.id, message.ts)).toMatchObject({ text: 'confirmed op-1 by <@UBOB000002>', blocks: [] });
    expect(slack.violations).toEqual([]);
  });

  it('returns a view_submission ack body (field errors) and block_suggestion options', async () => {
    const view = {
      id: 'VFORM00001',
      type: 'modal',
      callback_id: 'form',
      title: { type: 'plain_text', text: 'Form' },
      submit: { type: 'plain_text', text: 'Go' },
      blocks: [{ type: 'input', block_id: 'port', label: { type: 'plain_text', text: 'Port' }, element: { type: 'plain_text_input', action_id: 'port' } }],
    };
    const submitted = await send.interaction(viewSubmissionPayload({ view, values: { port: '99999' } }));
    expect(submitted.status).toBe(200);
    expect(submitted.json).toEqual({ response_action: 'errors', errors: { port: 'bad port 99999' } });
    const suggested = await send.interaction(blockSuggestionPayload({ actionId: 'pick', value: 'o' }));
    expect(suggested.json).toEqual({ options: [{ text: { type: 'plain_text', text: 'one' }, value: '1' }] });
  });

  it('passes Slack’s retry headers through to the app', async () => {
    const seen: Array<number | undefined> = [];
    app.command('/retry', async ({ ack, context }) => {
      seen.push(context.retryNum);
      await ack();
    });
    await send.command({ command: '/retry' }, { headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } });
    expect(seen).toEqual([1]);
  });
});
