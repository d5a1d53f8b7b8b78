/**
 * The start-up window (issue 20, item 1): in HTTP mode the bot listens before Slack has
 * answered auth.test. A command, a click or a form that arrives then is held until the bot is
 * ready while the ack allows (START_HOLD_MS of the bot's clock), and served like any other; past
 * that it is answered "starting, try again", with nothing sent. Never an internal error, never
 * dropped. Each scenario restarts the bot on the database of the first instance, so the click
 * and the form are ones the bot really sent before the restart.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { START_HOLD_MS } from '../../src/slack/start-gate.js';
import type { FakeMessage, FakeView } from '../rig/fake-slack.js';
import { appHomeOpenedEnvelope, blockActionsPayload, slashCommandFields, viewSubmissionPayload } from '../rig/payloads.js';
import type { SignedResponse } from '../rig/http.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import { visibleText } from './bot-rig.js';
import { startUpRig, type StartUpRig } from './start-up-rig.js';

let rig: StartUpRig;
afterEach(async () => {
  await rig.close();
});

const text = (m: { text: string; blocks?: unknown[] }) => visibleText({ text: m.text, blocks: m.blocks });
const latest = (m: FakeMessage) => rig.slack.messages.get(m.channel, m.ts)!;
const sent = (from: number) => rig.mutations(from).map((r) => `${r.method} ${r.rawPath}`);
const postsTo = (url: string) => rig.responses.postsTo(url).map((p) => visibleText(p.body));

/** With the first instance: a change awaiting Confirm (ssh-key delete 11) and an open backup form. */
async function askAndOpenForm(): Promise<{ msg: FakeMessage; form: FakeView }> {
  await rig.start();
  await rig.send().command({ userId: ALICE.id, channelId: OPS_CHANNEL.id, text: 'ssh-key delete 11', responseUrl: rig.responses.next() });
  const msg = await waitFor(() => rig.slack.messages.inChannel(OPS_CHANNEL.id).find((m) => text(m).includes('awaiting confirmation')), { timeoutMs: 5000 });
  await rig.send().command({ userId: ALICE.id, channelId: OPS_CHANNEL.id, text: 'backup create 104', responseUrl: rig.responses.next() });
  const form = await waitFor(() => rig.slack.views.all().find((v) => JSON.stringify(v.view).includes('"block_id":"compression"')), { timeoutMs: 5000 });
  await rig.bot().settled();
  await rig.stopBot();
  return { msg, form };
}

/** The three requests a person makes in the window; each resolves with its ack. */
function sendAll(msg: FakeMessage, form: FakeView) {
  const commandUrl = rig.responses.next();
  const clickUrl = rig.responses.next();
  const command = rig.send().command({ userId: ALICE.id, channelId: OPS_CHANNEL.id, text: 'server status 101', responseUrl: commandUrl });
  const click = rig.send().interaction(blockActionsPayload({ actionId: 'op_confirm', message: msg, userId: ALICE.id, channelId: OPS_CHANNEL.id, responseUrl: clickUrl }));
  const submit = rig.send().interaction(viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { name: 'before-upgrade' }, userId: ALICE.id }));
  return { commandUrl, clickUrl, command, click, submit };
}

/** Served like any other request: the status answered, the key deleted once, the backup announced and sent. */
async function expectServed(r: ReturnType<typeof sendAll>, msg: FakeMessage, from: number) {
  const [command, click, submit] = (await Promise.all([r.command, r.click, r.submit])) as SignedResponse[];
  for (const ack of [command!, click!, submit!]) expect(ack.status).toBe(200);
  expect(submit!.text).toBe(''); // the form closed: taken
  const answer = await waitFor(() => postsTo(r.commandUrl)[0], { timeoutMs: 5000 });
  expect(answer).toMatch(/Server 101[\s\S]*running/);
  await waitFor(() => text(latest(msg)).includes('— done'), { timeoutMs: 5000 });
  await waitFor(() => rig.slack.messages.inChannel(OPS_CHANNEL.id).find((m) => /Back up server `104` as `before-upgrade`/.test(text(m))), { timeoutMs: 5000 });
  await waitFor(() => (sent(from).length >= 2 ? true : undefined), { timeoutMs: 5000 });
  expect(sent(from).sort()).toEqual(['DELETE /v2/ssh-keys/11', 'POST /v2/servers/104/backups']);
  expect(rig.sandbox.requests.slice(from).filter((q) => q.rawPath === '/v2/servers/101/status')).toHaveLength(1);
  const all = rig.logLines.join('\n');
  expect(all).not.toContain('authorize is not a function');
  expect(all).not.toContain('failed unexpectedly');
  expect(all).not.toContain('failed inside the bot');
}

describe('HTTP mode, Slack slow to answer auth.test (1.5 s)', () => {
  beforeEach(async () => {
    rig = await startUpRig('http');
  });

  it('a command, a click and a form sent meanwhile are held and served once the bot is ready', async () => {
    const { msg, form } = await askAndOpenForm();
    rig.slack.delayNext('auth.test', 1500);
    const from = rig.sandbox.requests.length;
    const { ready } = await rig.startEarly();
    const r = sendAll(msg, form);
    await ready;
    await expectServed(r, msg, from);
  });
});

describe('HTTP mode, auth.test failing twice', () => {
  beforeEach(async () => {
    rig = await startUpRig('http');
  });

  it('past the hold each request is told "starting", nothing is sent; sent again once ready, each is served', async () => {
    const { msg, form } = await askAndOpenForm();
    rig.slack.httpErrorNext('auth.test', 503, 2);
    const from = rig.sandbox.requests.length;
    const base = rig.clock.pendingSleeps();
    const { ready } = await rig.startEarly();

    // The first tries fail; start-up waits 1 s, then 2 s (the bot's clock). Meanwhile three requests come.
    await waitFor(() => rig.clock.pendingSleeps() >= base + 1, { timeoutMs: 5000 });
    const early = sendAll(msg, form);
    const homeOpened = rig.send().event(appHomeOpenedEnvelope({ userId: ALICE.id }));
    await rig.advanceWhen(base + 5, 1000); // start-up tries again (and fails); the requests have waited 1 s
    await waitFor(() => rig.slack.callsTo('auth.test').length >= 2, { timeoutMs: 5000 });
    await rig.advanceWhen(base + 5, START_HOLD_MS - 1000); // the hold runs out before the bot is ready
    const [command, click, submit, home] = await Promise.all([early.command, early.click, early.submit, homeOpened]);
    // An event is the one request Slack redelivers: not taken (503), so it comes again later.
    expect(home.status).toBe(503);

    // The command: its ack is the answer, shown to the person at once.
    expect(command.status).toBe(200);
    expect(command.json).toMatchObject({ response_type: 'ephemeral' });
    const told = visibleText(command.json as Record<string, unknown>);
    expect(told).toContain('cloudbot is starting and did not take `/cloud server status 101` yet');
    expect(told).toContain('Nothing was sent');
    expect(told).toContain('Try again in a moment');
    // The click: acked, then told through its response_url; the change still waits for Confirm.
    expect(click.status).toBe(200);
    const clickTold = await waitFor(() => postsTo(early.clickUrl)[0], { timeoutMs: 5000 });
    expect(clickTold).toContain('cloudbot is starting and did not take that click yet');
    expect(rig.responses.postsTo(early.clickUrl)[0]!.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(text(latest(msg))).toContain('awaiting confirmation');
    // The form stays open as filled in, the reason under its first field.
    expect(submit.status).toBe(200);
    expect(submit.json).toEqual({ response_action: 'errors', errors: { name: expect.stringContaining('cloudbot is starting') } });
    expect(rig.sandbox.requests.length).toBe(from); // nothing reached the cloud
    expect(postsTo(early.commandUrl)).toEqual([]);

    // Sent again while the bot is still waiting, they are held; the third try succeeds and they are served.
    const again = sendAll(msg, form);
    await rig.advanceWhen(base + 4, 1000);
    await ready;
    await expectServed(again, msg, from);
    expect(rig.logLines.filter((l) => l.includes('a request came before the bot was ready'))).toHaveLength(4);
  });
});

describe('Socket Mode, auth.test failing twice', () => {
  beforeEach(async () => {
    rig = await startUpRig('socket');
  });

  it('connects only once ready, and serves a command, a click and a form delivered the moment it connects', async () => {
    await rig.start();
    // A change awaiting Confirm and an open form, from the first instance.
    await rig.socket!.slashCommand(slashCommandFields({ text: 'ssh-key delete 11', userId: ALICE.id, responseUrl: rig.responses.next() }));
    const msg = await waitFor(() => rig.slack.messages.inChannel(OPS_CHANNEL.id).find((m) => text(m).includes('awaiting confirmation')), { timeoutMs: 5000 });
    await rig.socket!.slashCommand(slashCommandFields({ text: 'backup create 104', userId: ALICE.id, responseUrl: rig.responses.next() }));
    const form = await waitFor(() => rig.slack.views.all().find((v) => JSON.stringify(v.view).includes('"block_id":"compression"')), { timeoutMs: 5000 });
    await rig.stopBot();
    await waitFor(() => rig.socket!.openConnections() === 0, { timeoutMs: 5000 });

    rig.slack.httpErrorNext('auth.test', 503, 2);
    const from = rig.sandbox.requests.length;
    const opened = rig.slack.callsTo('apps.connections.open').length;
    const base = rig.clock.pendingSleeps();
    const { ready } = await rig.startEarly();
    await rig.advanceWhen(base + 1, 1000);
    await waitFor(() => rig.slack.callsTo('auth.test').length >= 2, { timeoutMs: 5000 });
    // Not ready: not connected, so Slack routes nothing here (a ready replica keeps serving).
    expect(rig.socket!.openConnections()).toBe(0);
    expect(rig.slack.callsTo('apps.connections.open')).toHaveLength(opened);
    await rig.advanceWhen(base + 1, 2000);
    await rig.socket!.waitForConnection();

    const commandUrl = rig.responses.next();
    const clickUrl = rig.responses.next();
    const acks = await Promise.all([
      rig.socket!.slashCommand(slashCommandFields({ text: 'server status 101', userId: ALICE.id, responseUrl: commandUrl })),
      rig.socket!.interactive(blockActionsPayload({ actionId: 'op_confirm', message: msg, userId: ALICE.id, channelId: OPS_CHANNEL.id, responseUrl: clickUrl })),
      rig.socket!.interactive(viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { name: 'before-upgrade' }, userId: ALICE.id })),
    ]);
    await ready;
    expect(acks.every((a) => a.envelope_id)).toBe(true);
    expect(acks[2]!.payload).toBeUndefined(); // the form closed: taken
    expect(await waitFor(() => postsTo(commandUrl)[0], { timeoutMs: 5000 })).toMatch(/Server 101[\s\S]*running/);
    await waitFor(() => text(latest(msg)).includes('— done'), { timeoutMs: 5000 });
    await waitFor(() => (sent(from).length >= 2 ? true : undefined), { timeoutMs: 5000 });
    expect(sent(from).sort()).toEqual(['DELETE /v2/ssh-keys/11', 'POST /v2/servers/104/backups']);
    expect(rig.logLines.join('\n')).not.toContain('authorize is not a function');
  });
});
