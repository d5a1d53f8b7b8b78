import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routeListeners } from '../../src/slack/listener-routes.js';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { appHomeOpenedEnvelope, blockActionsPayload, viewSubmissionPayload } from '../rig/payloads.js';
import { recordingLogger } from '../rig/recording-logger.js';
import { createSlackSender, type SlackSender } from '../rig/slack-sender.js';
import { BOT_TOKEN, OPS_CHANNEL, SIGNING_SECRET } from '../rig/workspace.js';

const button = (actionId: string) => ({ type: 'button', action_id: actionId, value: 'v', text: { type: 'plain_text', text: 'Go' } });
const message = (...ids: string[]) => ({ ts: '1700000000.000100', channel: OPS_CHANNEL.id, text: 'm', blocks: [{ type: 'actions', block_id: 'b', elements: ids.map(button) }] });
// One input, `x`: Slack takes form errors only under an input block of the submitted view.
const INPUT = { type: 'input', block_id: 'x', label: { type: 'plain_text', text: 'X' }, element: { type: 'plain_text_input', action_id: 'x' } };
const modal = (callbackId: string) => ({ id: 'VROUTE0001', type: 'modal', callback_id: callbackId, title: { type: 'plain_text', text: 'F' }, blocks: [INPUT] });

/** The router under a real Bolt app over signed HTTP: each request reaches the one route its id names. */
describe('listener routes: one Bolt listener per kind, routed by id', () => {
  let slack: FakeSlack;
  let app: App;
  let send: SlackSender;
  const ran: string[] = [];

  beforeEach(async () => {
    ran.length = 0;
    slack = await createFakeSlack();
    const logger = recordingLogger();
    // An unrouted request is left unacknowledged by every listener: Bolt's timeout answers 404, soon.
    const receiver = new HTTPReceiver({ signingSecret: SIGNING_SECRET, logger, unhandledRequestTimeoutMillis: 200 });
    app = new App({ token: BOT_TOKEN, receiver, logger, clientOptions: { slackApiUrl: slack.url } });
    routeListeners(app, (routes) => {
      routes.command('/cloud', async ({ ack, command }) => void (ran.push(`command ${command.text}`), await ack()));
      routes.action('watch_keep', async ({ ack, action }) => void (ran.push(`keep ${action.action_id}`), await ack()));
      routes.action(/^home_run(?::\d+)?$/, async ({ ack, action }) => void (ran.push(`home ${action.action_id}`), await ack()));
      routes.action('a.b+', async ({ ack }) => void (ran.push('dotted'), await ack()));
      routes.view('form_one', async ({ ack, view }) => void (ran.push(`view ${view.callback_id}`), await ack()));
      routes.view('form_two', async ({ ack }) => void (ran.push('view two'), await ack({ response_action: 'errors', errors: { x: 'no' } })));
      routes.event('app_home_opened', async ({ event }) => void ran.push(`home opened ${event.tab}`));
      routes.event('link_shared', async () => void ran.push('links'));
    });
    await app.start({ port: 0, host: '127.0.0.1' });
    const server = (app as unknown as { receiver: { server?: Server } }).receiver.server ?? (receiver as unknown as { server: Server }).server;
    send = createSlackSender(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`, { slack });
  });

  afterEach(async () => {
    await app.stop();
    await slack.close();
  });

  it('gives Bolt one listener per kind of request, not one per route', () => {
    // command, action, view, event: four chains for Bolt to run per request, whatever the routes.
    expect((app as unknown as { listeners: unknown[] }).listeners).toHaveLength(4);
  });

  it('runs the route an action_id names, exact ids and patterns alike', async () => {
    expect((await send.interaction(blockActionsPayload({ actionId: 'home_run:3', message: message('home_run:3') }))).status).toBe(200);
    expect((await send.interaction(blockActionsPayload({ actionId: 'watch_keep', message: message('watch_keep') }))).status).toBe(200);
    expect((await send.command({ text: 'plan list' })).status).toBe(200);
    expect(ran).toEqual(['home home_run:3', 'keep watch_keep', 'command plan list']);
  });

  it('matches an exact id literally: a dot or a plus is no pattern, a prefix is not the id', async () => {
    const unrouted = ['aXb+', 'a.bb', 'watch_keep_more', 'xhome_run', 'home_run:x'];
    for (const id of unrouted) expect((await send.interaction(blockActionsPayload({ actionId: id, message: message(id) }))).status).toBe(404);
    expect((await send.interaction(blockActionsPayload({ actionId: 'a.b+', message: message('a.b+') }))).status).toBe(200);
    expect(ran).toEqual(['dotted']);
  });

  it('routes a view submission by callback_id, and its ack body goes back to Slack', async () => {
    expect((await send.interaction(viewSubmissionPayload({ view: modal('form_one'), values: {} }))).status).toBe(200);
    const two = await send.interaction(viewSubmissionPayload({ view: modal('form_two'), values: {} }));
    expect(two.json).toEqual({ response_action: 'errors', errors: { x: 'no' } });
    expect((await send.interaction(viewSubmissionPayload({ view: modal('form_three'), values: {} }))).status).toBe(404);
    expect(ran).toEqual(['view form_one', 'view two']);
  });

  it('routes an event by its type', async () => {
    expect((await send.event(appHomeOpenedEnvelope({ tab: 'messages' }))).status).toBe(200);
    await expect.poll(() => ran).toEqual(['home opened messages']);
  });

  it('refuses a pattern with flags, whose meaning a union of patterns could not keep', () => {
    expect(() => routeListeners(app, (routes) => routes.action(/^x$/i, async () => {}))).toThrow(/no flags/);
  });
});
