import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type ViewResponseAction } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { createFakeSocket, type FakeSocket } from '../rig/fake-socket.js';
import { triggerId } from '../rig/ids.js';
import { blockActionsPayload, viewClosedPayload, viewSubmissionPayload } from '../rig/payloads.js';
import { recordingLogger } from '../rig/recording-logger.js';
import { createSlackSender, type SlackSender } from '../rig/slack-sender.js';
import { APP_TOKEN, BOT_TOKEN, SIGNING_SECRET } from '../rig/workspace.js';
import { slackError, webClient, type WebClient } from './web-client.js';

/**
 * Modals close in the fake Slack as they do in Slack
 * (https://api.slack.com/surfaces/modals#interactions): what the app acks to a view_submission
 * decides — empty: the submitted view closes (a root view: the modal); `clear`: the whole
 * stack; `update`: the same view id shows the new view; `push`: a view is stacked; `errors`:
 * it stays open. view_closed closes it too. A closed view is gone: views.update / views.push
 * answer `not_found`. A bare Bolt app answers by the view's callback_id.
 */
const modal = (callbackId: string, title = 'Reinstall server') => ({
  type: 'modal' as const,
  callback_id: callbackId,
  title: { type: 'plain_text' as const, text: title },
  submit: { type: 'plain_text' as const, text: 'Go' },
  notify_on_close: true,
  blocks: [
    { type: 'input', block_id: 'os', label: { type: 'plain_text', text: 'OS' }, element: { type: 'plain_text_input', action_id: 'os_input' } },
    { type: 'actions', block_id: 'more', elements: [{ type: 'button', action_id: 'more', text: { type: 'plain_text', text: 'More' } }] },
  ],
});

const ANSWERS: Record<string, ViewResponseAction | undefined> = {
  close: undefined,
  clear: { response_action: 'clear' },
  update: { response_action: 'update', view: modal('close', 'Done') },
  push: { response_action: 'push', view: modal('close', 'Step 2') },
  errors: { response_action: 'errors', errors: { os: 'not that one' } },
  refused: { response_action: 'errors', errors: { nosuchblock: 'Slack cannot show this' } },
};

function answerByCallback(app: App): void {
  app.view(/.*/, async ({ ack, view }) => {
    await ack(ANSWERS[view.callback_id]);
  });
  app.view({ type: 'view_closed', callback_id: /.*/ }, async ({ ack }) => {
    await ack();
  });
  app.action('more', async ({ ack }) => {
    await ack();
  });
}

describe('fake Slack closes modals as Slack does (HTTP)', () => {
  let slack: FakeSlack;
  let app: App;
  let send: SlackSender;
  let client: WebClient;

  beforeEach(async () => {
    slack = await createFakeSlack();
    client = webClient(slack.url);
    app = new App({ token: BOT_TOKEN, signingSecret: SIGNING_SECRET, logger: recordingLogger(), clientOptions: { slackApiUrl: slack.url } });
    answerByCallback(app);
    const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
    send = createSlackSender(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`, { slack });
  });

  afterEach(async () => {
    await app.stop();
    await slack.close();
  });

  const open = async (callbackId: string) => (await client.views.open({ trigger_id: triggerId(), view: modal(callbackId) })).view!;
  const push = async (callbackId: string) => (await client.views.push({ trigger_id: triggerId(), view: modal(callbackId, 'Pushed') })).view!;
  const submit = (id: string) => send.interaction(viewSubmissionPayload({ view: slack.views.get(id)!.view, values: { os_input: 'debian' } }));

  it('an empty ack closes the submitted root view: the whole modal, and views.update / views.push on it answer not_found', async () => {
    const view = await open('close');
    const ack = await submit(view.id!);
    expect(ack.text).toBe('');
    expect(slack.views.isOpen(view.id!)).toBe(false);
    expect(slack.views.get(view.id!)!.closedAt).toEqual(expect.any(Number));
    await slackError(client.views.update({ view_id: view.id!, view: modal('close', 'Too late') }), 'not_found');
    await slackError(client.views.update({ view_id: view.id!, hash: view.hash!, view: modal('close', 'Too late') }), 'not_found');
    await slackError(client.views.push({ trigger_id: triggerId(), view: modal('close', 'Too late') }), 'not_found');
    expect(slack.views.get(view.id!)!.versions).toHaveLength(1);
  });

  it('an empty ack on a pushed view closes only it: the view below is shown again', async () => {
    const root = await open('close');
    const pushed = await push('close');
    await submit(pushed.id!);
    expect(slack.views.isOpen(pushed.id!)).toBe(false);
    expect(slack.views.isOpen(root.id!)).toBe(true);
    await client.views.update({ view_id: root.id!, view: modal('close', 'Back at the root') });
    await slackError(client.views.update({ view_id: pushed.id!, view: modal('close') }), 'not_found');
  });

  it('response_action clear closes the whole stack', async () => {
    const root = await open('close');
    const pushed = await push('clear');
    await submit(pushed.id!);
    expect(slack.views.isOpen(root.id!)).toBe(false);
    expect(slack.views.isOpen(pushed.id!)).toBe(false);
    await slackError(client.views.update({ view_id: root.id!, view: modal('close') }), 'not_found');
  });

  it('response_action update keeps the view open under the same id, showing the new view with a new hash', async () => {
    const view = await open('update');
    const ack = await submit(view.id!);
    expect(ack.json).toMatchObject({ response_action: 'update' });
    const now = slack.views.get(view.id!)!;
    expect(slack.views.isOpen(view.id!)).toBe(true);
    expect(now.versions).toHaveLength(2);
    expect(now.view).toMatchObject({ id: view.id, title: { text: 'Done' }, callback_id: 'close', root_view_id: view.id });
    expect(now.view.hash).not.toBe(view.hash);
    await slackError(client.views.update({ view_id: view.id!, hash: view.hash!, view: modal('close') }), 'hash_conflict');
    await client.views.update({ view_id: view.id!, hash: String(now.view.hash), view: modal('close', 'Updated again') });
  });

  it('response_action push stacks a new view on the submitted one', async () => {
    const root = await open('push');
    await submit(root.id!);
    const top = slack.views.latest()!;
    expect(top.id).not.toBe(root.id);
    expect(top.view).toMatchObject({ previous_view_id: root.id, root_view_id: root.id, title: { text: 'Step 2' } });
    expect(slack.views.isOpen(root.id!)).toBe(true);
    // Submitting the pushed view with an empty ack goes back to the root.
    await submit(top.id);
    expect(slack.views.isOpen(top.id)).toBe(false);
    expect(slack.views.isOpen(root.id!)).toBe(true);
  });

  it('response_action errors leaves the view open, as filled in', async () => {
    const view = await open('errors');
    const ack = await submit(view.id!);
    expect(ack.json).toEqual({ response_action: 'errors', errors: { os: 'not that one' } });
    expect(slack.views.isOpen(view.id!)).toBe(true);
    await client.views.update({ view_id: view.id!, view: modal('errors', 'Still open') });
  });

  it('an answer Slack would refuse (errors on no input) leaves the view open; so does a refused delivery', async () => {
    const view = await open('refused');
    await expect(submit(view.id!)).rejects.toThrow(/Slack would refuse/);
    expect(slack.views.isOpen(view.id!)).toBe(true);
    const closing = await open('close');
    const res = await send.interaction(viewSubmissionPayload({ view: slack.views.get(closing.id!)!.view }), { badSignature: true });
    expect(res.status).toBe(401);
    expect(slack.views.isOpen(closing.id!)).toBe(true);
  });

  it('view_closed closes the view (is_cleared: the whole stack)', async () => {
    const root = await open('close');
    const pushed = await push('close');
    await send.interaction(viewClosedPayload({ view: slack.views.get(pushed.id!)!.view }));
    expect(slack.views.isOpen(pushed.id!)).toBe(false);
    expect(slack.views.isOpen(root.id!)).toBe(true);
    const again = await push('close');
    await send.interaction(viewClosedPayload({ view: slack.views.get(again.id!)!.view, isCleared: true }));
    expect(slack.views.isOpen(root.id!)).toBe(false);
    await slackError(client.views.update({ view_id: root.id!, view: modal('close') }), 'not_found');
  });

  it('nobody can submit or click in a closed modal: the rig throws, unless Slack is redelivering', async () => {
    const view = await open('close');
    const stale = slack.views.get(view.id!)!.view;
    await submit(view.id!);
    await expect(send.interaction(viewSubmissionPayload({ view: stale }))).rejects.toThrow(/modal view V\w+ \(close\) is closed/);
    await expect(send.interaction(blockActionsPayload({ actionId: 'more', view: stale }))).rejects.toThrow(/is closed/);
    const retried = await send.interaction(viewSubmissionPayload({ view: stale }), { headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } });
    expect(retried.status).toBe(200);
  });

  it('views.push with a trigger from inside a closed modal answers not_found, even while another modal is open', async () => {
    const first = await open('close');
    const click = blockActionsPayload({ actionId: 'more', view: slack.views.get(first.id!)!.view });
    await send.interaction(click);
    await submit(first.id!);
    const other = await open('close');
    await slackError(client.views.push({ trigger_id: String(click.trigger_id), view: modal('close', 'Too late') }), 'not_found');
    // A trigger from inside the open modal stacks there.
    const inOther = blockActionsPayload({ actionId: 'more', view: slack.views.get(other.id!)!.view });
    await send.interaction(inOther);
    const pushed = (await client.views.push({ trigger_id: String(inOther.trigger_id), view: modal('close', 'Pushed') })).view!;
    expect(pushed).toMatchObject({ previous_view_id: other.id, root_view_id: other.id });
  });
});

describe('fake Slack closes modals as Slack does (Socket Mode)', () => {
  let slack: FakeSlack;
  let socket: FakeSocket;
  let app: App;

  beforeEach(async () => {
    slack = await createFakeSlack();
    socket = await createFakeSocket({ slack });
    app = new App({ token: BOT_TOKEN, appToken: APP_TOKEN, socketMode: true, logger: recordingLogger(), clientOptions: { slackApiUrl: slack.url } });
    answerByCallback(app);
    await app.start();
    await socket.waitForConnection();
  });

  afterEach(async () => {
    await app.stop();
    await socket.close();
    await slack.close();
  });

  it('the ack of a view_submission envelope closes, updates or keeps the view', async () => {
    const client = webClient(slack.url);
    const closing = (await client.views.open({ trigger_id: triggerId(), view: modal('close') })).view!;
    await socket.interactive(viewSubmissionPayload({ view: slack.views.get(closing.id!)!.view }));
    expect(slack.views.isOpen(closing.id!)).toBe(false);
    await slackError(client.views.update({ view_id: closing.id!, view: modal('close') }), 'not_found');

    const updating = (await client.views.open({ trigger_id: triggerId(), view: modal('update') })).view!;
    await socket.interactive(viewSubmissionPayload({ view: slack.views.get(updating.id!)!.view }));
    expect(slack.views.isOpen(updating.id!)).toBe(true);
    expect(slack.views.get(updating.id!)!.view).toMatchObject({ title: { text: 'Done' } });

    const refusing = (await client.views.open({ trigger_id: triggerId(), view: modal('errors') })).view!;
    await socket.interactive(viewSubmissionPayload({ view: slack.views.get(refusing.id!)!.view }));
    expect(slack.views.isOpen(refusing.id!)).toBe(true);
  });
});

/**
 * Slack waits 3 s for the answer to a view_submission; after that it shows the person an error
 * in the modal ("We had some trouble connecting") and ignores a late answer: the view stays
 * open as it was (https://api.slack.com/interactivity/handling#acknowledgment_response). The rig
 * judges this on an injected clock only, the one the fake Slack was given: here the app's
 * handler moves it on before acking, as a slow handler would.
 */
describe('fake Slack ignores a view_submission ack later than 3 s (injected clock)', () => {
  let now = 1_700_000_000_000;
  let slack: FakeSlack;
  let app: App;
  let send: SlackSender;
  let client: WebClient;
  let handlerTakesMs = 0;

  beforeEach(async () => {
    now = 1_700_000_000_000;
    slack = await createFakeSlack({ now: () => now });
    client = webClient(slack.url);
    app = new App({ token: BOT_TOKEN, signingSecret: SIGNING_SECRET, logger: recordingLogger(), clientOptions: { slackApiUrl: slack.url } });
    app.view(/.*/, async ({ ack, view }) => {
      now += handlerTakesMs;
      await ack(ANSWERS[view.callback_id]);
    });
    const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
    send = createSlackSender(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`, { slack });
  });

  afterEach(async () => {
    await app.stop();
    await slack.close();
  });

  const open = async (callbackId: string) => (await client.views.open({ trigger_id: triggerId(now), view: modal(callbackId) })).view!;
  const submit = (id: string) => send.interaction(viewSubmissionPayload({ view: slack.views.get(id)!.view, values: { os_input: 'debian' }, nowMs: now }));

  it('an empty ack 3001 ms after delivery leaves the modal open, and views.update still reaches it', async () => {
    handlerTakesMs = 3_001;
    const view = await open('close');
    await submit(view.id!);
    expect(slack.views.isOpen(view.id!)).toBe(true);
    expect(slack.views.get(view.id!)!.lateAcks).toEqual([now]);
    await client.views.update({ view_id: view.id!, view: modal('close', 'Still here') });
  });

  it('a late update is not shown: the view keeps its version', async () => {
    handlerTakesMs = 5_000;
    const view = await open('update');
    await submit(view.id!);
    expect(slack.views.get(view.id!)!.versions).toHaveLength(1);
    expect(slack.views.get(view.id!)!.view).toMatchObject({ title: { text: 'Reinstall server' } });
  });

  it('an ack at exactly 3 s is still in time and closes the modal', async () => {
    handlerTakesMs = 3_000;
    const view = await open('close');
    await submit(view.id!);
    expect(slack.views.isOpen(view.id!)).toBe(false);
    expect(slack.views.get(view.id!)!.lateAcks).toBeUndefined();
  });
});

describe('fake Slack ignores a late view_submission ack in Socket Mode too (injected clock)', () => {
  it('an envelope acked 3001 ms after it was pushed leaves the modal open', async () => {
    let now = 1_700_000_000_000;
    const slack = await createFakeSlack({ now: () => now });
    const socket = await createFakeSocket({ slack });
    const app = new App({ token: BOT_TOKEN, appToken: APP_TOKEN, socketMode: true, logger: recordingLogger(), clientOptions: { slackApiUrl: slack.url } });
    app.view(/.*/, async ({ ack }) => {
      now += 3_001;
      await ack();
    });
    try {
      await app.start();
      await socket.waitForConnection();
      const view = (await webClient(slack.url).views.open({ trigger_id: triggerId(now), view: modal('close') })).view!;
      await socket.interactive(viewSubmissionPayload({ view: slack.views.get(view.id!)!.view, nowMs: now }));
      expect(slack.views.isOpen(view.id!)).toBe(true);
      expect(slack.views.get(view.id!)!.lateAcks).toHaveLength(1);
    } finally {
      await app.stop();
      await socket.close();
      await slack.close();
    }
  });
});
