/**
 * Slack failing the bot's own Web API calls (issue 11, "Slack failures bounded"): a change whose
 * status message cannot be posted is not sent and the person is told why through the
 * response_url; status edits that keep failing never hold the change, and its outcome still
 * reaches the person; a form that cannot open is answered; click answers fall back to the
 * response_url. Every call is bounded by the WebClient's timeout and tries (app.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLACK_CALL_TIMEOUT_MS, SLACK_RETRY } from '../../src/slack/app.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, OPS_CHANNEL } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';

const TIMEOUT_MS = 250;
let rig: BotRig;
const { text, latest, ephemeralTo } = rigHelpers(() => rig);

beforeAll(async () => {
  // The production number of tries, without the waits; a short per-call timeout for hangs.
  rig = await startBotRig({ slackCallTimeoutMs: TIMEOUT_MS });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const newestRecord = async () => (await rig.store.operations.listRecent({ limit: 1 }))[0]!;
const postsSince = (at: number) => rig.responses.posts.filter((p) => p.at >= at && p.status === 200);

describe('the status message of a change cannot be posted', () => {
  it('invalid_blocks: nothing is sent, the record is cancelled with the reason, the person is told why', async () => {
    rig.slack.failNext('chat.postMessage', 'invalid_blocks');
    const r = await rig.command('server rename 101 web-renamed');
    expect(r.cloudRequests.filter((q) => q.method !== 'GET')).toEqual([]);
    const shown = visibleText(r.final);
    expect(r.final.text).toBe('I could not post the status message, so nothing was sent to the cloud.');
    expect(shown).toContain('Slack did not accept it (`invalid_blocks`)');
    expect(shown).toContain('*nothing was sent to the cloud*');
    expect(await newestRecord()).toMatchObject({ status: 'cancelled', errorCode: 'STATUS_NOT_POSTED', errorMessage: 'Slack refused chat.postMessage: invalid_blocks' });
  });

  it('HTTP 500: tried once (it may have landed, so never re-posted), nothing sent, the person told', async () => {
    const calls = rig.slack.callsTo('chat.postMessage').length;
    rig.slack.httpErrorNext('chat.postMessage', 500, 1);
    const r = await rig.command('server rename 101 web-renamed');
    expect(rig.slack.callsTo('chat.postMessage').slice(calls).map((c) => c.status)).toEqual([500]);
    expect(r.cloudRequests.filter((q) => q.method !== 'GET')).toEqual([]);
    expect(visibleText(r.final)).toContain('Slack answered with a server error (`http_500`)');
    expect(await newestRecord()).toMatchObject({ status: 'cancelled', errorCode: 'STATUS_NOT_POSTED', errorMessage: 'Slack did not answer chat.postMessage: http_500' });
  });

  it('a 429 (not processed by Slack) is waited out and posted again: one status message, the change goes on', async () => {
    const calls = rig.slack.callsTo('chat.postMessage').length;
    rig.slack.rateLimitNext('chat.postMessage', 1, 1);
    await rig.sendCommand('server rename 101 web-429');
    await waitFor(() => (rig.slack.callsTo('chat.postMessage').length > calls + 1 ? true : undefined), { timeoutMs: 5000 });
    expect(rig.slack.callsTo('chat.postMessage').slice(calls).map((c) => c.status)).toEqual([429, 200]);
    expect(await waitFor(async () => ((await newestRecord()).status === 'succeeded' ? await newestRecord() : undefined), { timeoutMs: 5000 })).toMatchObject({
      status: 'succeeded',
      args: { server: '101', name: 'web-429' },
    });
  });

  it('no answer at all: given up after one timeout (never re-posted), nothing sent, the record not left pending', async () => {
    const calls = rig.slack.callsTo('chat.postMessage').length;
    rig.slack.hangNext('chat.postMessage', 1);
    const r = await rig.command('server rename 101 web-renamed');
    // One try, never answered (status 0), given up on its timeout (the record says so below).
    expect(rig.slack.callsTo('chat.postMessage').slice(calls).map((c) => c.status)).toEqual([0]);
    expect(r.cloudRequests.filter((q) => q.method !== 'GET')).toEqual([]);
    expect(visibleText(r.final)).toContain('Slack did not answer in time');
    expect(await newestRecord()).toMatchObject({ status: 'cancelled', errorCode: 'STATUS_NOT_POSTED', errorMessage: 'Slack did not answer chat.postMessage: timeout' });
  });
});

describe('status edits that keep failing after Confirm', () => {
  it('HTTP 500 on every chat.update: one request, the outcome told to the clicker privately', async () => {
    const before = Date.now();
    const from = rig.sandbox.requests.length;
    await rig.sendCommand('ssh-key delete 11');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    rig.slack.httpErrorNext('chat.update', 500, 1000);
    await rig.click(msg, 'op_confirm', ALICE.id);
    const told = await waitFor(() => ephemeralTo(ALICE.id).find((t) => t.includes('I could not update the status message')), { timeoutMs: 5000 });
    expect(told).toContain('I could not update the status message in the channel: Slack answered with a server error (`http_500`). Here is the outcome.');
    expect(told).toMatch(/Delete SSH key `11` \(.+\)\* — done/);
    expect(rig.mutations(from).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['DELETE /v2/ssh-keys/11']);
    expect(text(latest(msg))).toContain('awaiting confirmation'); // Slack never took an edit
    expect(await newestRecord()).toMatchObject({ status: 'succeeded' });
    rig.slack.clearFaults();
  });

  it('chat.update and chat.postEphemeral both failing: the outcome goes to the click’s response_url', async () => {
    const before = Date.now();
    const from = rig.sandbox.requests.length;
    await rig.sendCommand('ssh-key delete 12');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    rig.slack.failNext('chat.update', 'message_not_found', 1000);
    rig.slack.httpErrorNext('chat.postEphemeral', 503, 1000);
    const clicked = Date.now();
    await rig.click(msg, 'op_confirm', ALICE.id);
    const post = await waitFor(() => postsSince(clicked).find((p) => visibleText(p.body).includes('Here is the outcome')), { timeoutMs: 5000 });
    expect(post.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(visibleText(post.body)).toContain('Slack did not accept it (`message_not_found`)');
    expect(rig.mutations(from).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['DELETE /v2/ssh-keys/12']);
    expect(rig.logLines.some((l) => l.includes('could not answer a click'))).toBe(true);
    rig.slack.clearFaults();
  });
});

describe('forms and click answers when Slack fails', () => {
  it('views.open answering expired_trigger_id: the person is told through the response_url', async () => {
    rig.slack.failNext('views.open', 'expired_trigger_id');
    const r = await rig.command('server reinstall 101');
    expect(r.final.text).toBe('I could not open the form, so nothing was done.');
    expect(visibleText(r.final)).toContain("Slack no longer accepted the command's trigger (`expired_trigger_id`): a form must open within 3 seconds, and that passed. Nothing was done; run the command again.");
    expect(r.cloudRequests.filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('views.open with no answer in time: told too', async () => {
    rig.slack.hangNext('views.open', 3);
    const r = await rig.command('server reinstall 101');
    expect(visibleText(r.final)).toContain('I could not open the form. Slack did not answer in time.');
  });

  it('a refused click whose ephemeral answer Slack keeps failing (5xx) is answered through the response_url, and logged', async () => {
    const before = Date.now();
    await rig.sendCommand('ssh-key delete 13');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    rig.slack.httpErrorNext('chat.postEphemeral', 500, 3);
    const clicked = Date.now();
    await rig.click(msg, 'op_confirm', BOB.id);
    const post = await waitFor(() => postsSince(clicked).find((p) => visibleText(p.body).includes('it needs the *admin* role')), { timeoutMs: 5000 });
    expect(post.body).toMatchObject({ response_type: 'ephemeral' });
    expect(rig.slack.callsTo('chat.postEphemeral').filter((c) => c.at >= clicked).map((c) => c.status)).toEqual([500, 500, 500]);
    expect(rig.logLines.some((l) => l.includes('could not answer a click'))).toBe(true);
    await rig.click(latest(msg), 'op_cancel', ALICE.id);
  });

  it('a read needs no Web API call: with chat.postEphemeral down it is answered through the response_url', async () => {
    rig.slack.httpErrorNext('chat.postEphemeral', 500, 1000);
    const r = await rig.command('server status 101');
    expect(visibleText(r.final)).toContain('Server `101`: running');
    rig.slack.clearFaults();
  });
});

describe('the bound itself', () => {
  it('a call takes at most timeout × 3 tries plus 1.5 s of waits: seconds, not half an hour', () => {
    expect(SLACK_CALL_TIMEOUT_MS).toBe(5000);
    expect(SLACK_RETRY).toMatchObject({ retries: 2, factor: 2, minTimeout: 500, maxTimeout: 1000, randomize: false });
    const waits = [0, 1].map((i) => Math.min(SLACK_RETRY.maxTimeout!, SLACK_RETRY.minTimeout! * SLACK_RETRY.factor! ** i));
    expect((SLACK_RETRY.retries! + 1) * SLACK_CALL_TIMEOUT_MS + waits.reduce((a, b) => a + b, 0)).toBe(16_500);
  });

  it('with the production policy, a persistent 500 on chat.update neither holds the change nor silences its outcome', async () => {
    const real = await startBotRig({ slackRetry: SLACK_RETRY });
    try {
      const before = Date.now();
      await real.sendCommand('ssh-key delete 11');
      const msg = await real.statusMessage(OPS_CHANNEL.id, before);
      real.slack.httpErrorNext('chat.update', 500, 1000);
      await real.click(msg, 'op_confirm', ALICE.id);
      await waitFor(() => real.mutations().some((q) => q.method === 'DELETE'), { timeoutMs: 5000 });
      // Sent while the first edit was still being retried (3 tries, 0.5 s + 1 s between): nothing held it.
      expect(real.slack.callsTo('chat.update').length).toBeLessThan(3);
      const told = await waitFor(
        () => real.slack.messages.ephemeral(ALICE.id).find((e) => visibleText({ text: e.text, blocks: e.blocks }).includes('Here is the outcome')),
        { timeoutMs: 10_000 },
      );
      expect(told).toBeDefined(); // the outcome reached the person although both edits (running, then done) failed
      expect(real.slack.callsTo('chat.update').map((c) => c.status)).toEqual([500, 500, 500, 500, 500, 500]);
      expect(real.mutations().filter((q) => q.method === 'DELETE')).toHaveLength(1);
    } finally {
      await real.close();
    }
  }, 20_000);
});
