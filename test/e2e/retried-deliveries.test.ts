/**
 * Retried deliveries (issue 21, item 6): Slack re-sends a request it thinks was lost with
 * `x-slack-retry-num` (HTTP) or `retry_attempt` (Socket Mode), with the very same body. A retry
 * of a delivery the bot already took is acked and not answered again, so a read of a secret is
 * shown once, however often it is delivered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { startSocketRig, type SocketRig } from './socket-rig.js';
import { appHomeOpenedEnvelope, slashCommandFields } from '../rig/payloads.js';
import { triggerId as newTriggerId } from '../rig/ids.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE } from '../rig/workspace.js';

const retry = (n: number) => ({ headers: { 'x-slack-retry-num': String(n), 'x-slack-retry-reason': 'http_timeout' } });

describe('over HTTP', () => {
  let rig: BotRig;
  beforeAll(async () => {
    rig = await startBotRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('`server credentials` delivered four times shows the password once and reads it once', async () => {
    const responseUrl = rig.responses.next();
    const input = { userId: ALICE.id, responseUrl, triggerId: newTriggerId() };
    await rig.sendCommand('server credentials 101', input);
    const [first] = await waitFor(() => (rig.responses.postsTo(responseUrl).length ? rig.responses.postsTo(responseUrl) : undefined), { timeoutMs: 10_000 });
    const root = rig.sandbox.state.servers.find((s) => s.id === 101)!.rootPassword!;
    expect(visibleText(first!.body)).toContain(root);
    for (const n of [1, 2, 3]) expect((await rig.sendCommand('server credentials 101', input, retry(n))).status).toBe(200);
    await rig.bot.settled();
    expect(rig.responses.postsTo(responseUrl)).toHaveLength(1);
    expect(rig.sandbox.requests.filter((q) => q.path.endsWith('/credentials'))).toHaveLength(1);
    expect(rig.logLines.some((l) => l.includes('retried delivery') && l.includes('http_timeout'))).toBe(true);
  });

  it('a retry while the first delivery is still being answered is not answered as well', async () => {
    rig.sandbox.setLatency(300);
    const responseUrl = rig.responses.next();
    const input = { userId: ALICE.id, responseUrl, triggerId: newTriggerId() };
    await rig.sendCommand('server status 101', input);
    await rig.sendCommand('server status 101', input, retry(1));
    await rig.bot.settled();
    rig.sandbox.setLatency(0);
    expect(rig.responses.postsTo(responseUrl)).toHaveLength(1);
  });

  it('a retry of a delivery the bot never took is answered', async () => {
    const responseUrl = rig.responses.next();
    await rig.sendCommand('server status 101', { responseUrl, triggerId: newTriggerId() }, retry(1));
    const [post] = await waitFor(() => (rig.responses.postsTo(responseUrl).length ? rig.responses.postsTo(responseUrl) : undefined), { timeoutMs: 10_000 });
    expect(visibleText(post!.body)).toMatch(/Server 101/);
  });

  it('an event delivered again (same event_id) is handled once: App Home is published once', async () => {
    const envelope = appHomeOpenedEnvelope({ userId: ALICE.id });
    const before = rig.slack.callsTo('views.publish').length;
    await rig.send.event(envelope);
    await waitFor(() => rig.slack.callsTo('views.publish').length > before, { timeoutMs: 10_000 });
    expect((await rig.send.event(envelope, retry(1))).status).toBe(200);
    await rig.bot.settled();
    expect(rig.slack.callsTo('views.publish').length).toBe(before + 1);
  });
});

describe('over Socket Mode', () => {
  let sock: SocketRig;
  beforeAll(async () => {
    sock = await startSocketRig({ cloudToken: 'retry-socket-cloud-token', admins: [ALICE.id] });
  });
  afterAll(async () => {
    await sock?.close();
  });

  it('an envelope with retry_attempt for a command already taken is acked, not answered again', async () => {
    const responseUrl = sock.responses.next();
    const fields = slashCommandFields({ userId: ALICE.id, text: 'server credentials 101', responseUrl, triggerId: newTriggerId() });
    await sock.socket.slashCommand(fields);
    await waitFor(() => sock.responses.postsTo(responseUrl).length > 0, { timeoutMs: 5000 });
    const ack = await sock.socket.slashCommand(fields, { retryAttempt: 1, retryReason: 'timeout' });
    expect(ack.envelope_id).toBeTruthy();
    await sock.bot.settled();
    expect(sock.responses.postsTo(responseUrl)).toHaveLength(1);
    expect(sock.sandbox.requests.filter((q) => q.path.endsWith('/credentials'))).toHaveLength(1);
  });
});
