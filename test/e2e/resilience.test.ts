/**
 * What must hold whatever Slack or the cloud does: forged requests are refused before any
 * work, nothing typed reaches a URL path unvalidated, and every request is acked well inside
 * Slack's 3 s while the person still gets an answer from a down or slow cloud.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { slashCommandBody, FORM_CONTENT_TYPE } from '../rig/payloads.js';
import { postSigned } from '../rig/http.js';
import { ALICE, OPS_CHANNEL, SIGNING_SECRET } from '../rig/workspace.js';
import { waitFor } from '../rig/wait-for.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

let rig: BotRig;
beforeAll(async () => {
  rig = await startBotRig({ slowNoticeMs: 1000 });
});
afterEach(() => {
  rig.sandbox.clearFaults();
  rig.sandbox.setLatency(0);
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
  expect(rig.responses.violations).toEqual([]);
});

describe('request verification', () => {
  it('refuses a bad signature with 401 and does nothing', async () => {
    const before = rig.sandbox.requests.length;
    const responseUrl = rig.responses.next();
    const body = slashCommandBody({ text: 'server status 101', responseUrl, userId: ALICE.id, channelId: OPS_CHANNEL.id });
    const res = await postSigned(rig.eventsUrl, body, FORM_CONTENT_TYPE, { signingSecret: SIGNING_SECRET, badSignature: true });
    expect(res.status).toBe(401);
    await new Promise((r) => setTimeout(r, 200)); // give stray work a chance to show itself
    expect(rig.sandbox.requests.length).toBe(before);
    expect(rig.responses.postsTo(responseUrl)).toEqual([]);
  });

  it('refuses a replayed request older than five minutes', async () => {
    const before = rig.sandbox.requests.length;
    const body = slashCommandBody({ text: 'server status 101', responseUrl: rig.responses.next() });
    const res = await postSigned(rig.eventsUrl, body, FORM_CONTENT_TYPE, {
      signingSecret: SIGNING_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    expect(res.status).toBe(401);
    expect(rig.sandbox.requests.length).toBe(before);
  });

  it('refuses a request signed with another secret', async () => {
    const body = slashCommandBody({ text: 'server status 101', responseUrl: rig.responses.next() });
    const res = await postSigned(rig.eventsUrl, body, FORM_CONTENT_TYPE, { signingSecret: 'not-the-secret-at-all' });
    expect(res.status).toBe(401);
  });
});

describe('identifiers never reach a URL path unvalidated', () => {
  const attempts = [
    'server status ../../account/usage',
    'server status 101/../102',
    'server status ..%2F..%2Faccount',
    'server status %2e%2e',
    'server status 101%2Fips',
    `server status ${'9'.repeat(40)}`,
    `server status ${'a'.repeat(37)}`,
    'server ips 101?x=1',
    'server ips "101 102"',
    'server credentials 101#',
    'backup list ../101',
    'worker status ../../servers/101/credentials',
    'sg show 7/rules',
    'sg show 1e3',
    'plan list --location ../1',
  ];
  for (const text of attempts) {
    it(`/cloud ${text}`, async () => {
      const r = await rig.command(text);
      expect(r.cloudRequests).toEqual([]);
      expect(r.final.response_type).toBe('ephemeral');
      // A word shaped like a name (`aaaa…`, `1e3`) is looked up among the names seen, never sent.
      expect(visibleText(r.final)).toMatch(/is not a|<server>|<id>|--location|<worker-uuid>|I don't know a/);
    });
  }
});

describe('the cloud down or slow', () => {
  it('503 on every try: acked at once, then the person is told', async () => {
    rig.sandbox.addFault({ path: '/servers/101/status', status: 503, times: Infinity });
    const r = await rig.command('server status 101');
    expect(r.ack.status).toBe(200); // acked before the cloud answers: the next test holds the cloud to show it
    expect(r.cloudRequests.length).toBeGreaterThan(1); // a read is retried…
    expect(r.cloudRequests.every((q) => q.method === 'GET')).toBe(true);
    const text = visibleText(r.final);
    expect(text).toContain('`/cloud server status` failed');
    expect(text).toMatch(/having trouble right now \(HTTP 503/); // …then explained
  });

  it('2.5 s of latency: acked before the cloud answers, a slow notice, then the answer in its place', async () => {
    rig.sandbox.setLatency(2500);
    const responseUrl = rig.responses.next();
    const ack = await rig.sendCommand('account usage', { responseUrl });
    expect(ack.status).toBe(200);
    // Acked while the cloud had not answered: nothing but (at most) the slow notice yet.
    expect(rig.responses.postsTo(responseUrl).filter((p) => !/the cloud is slow to answer/.test(visibleText(p.body)))).toEqual([]);
    await waitFor(() => rig.responses.postsTo(responseUrl).length === 2, { timeoutMs: 10_000 });
    const r = { posts: rig.responses.postsTo(responseUrl), final: rig.responses.postsTo(responseUrl)[1]!.body };
    expect(r.posts).toHaveLength(2);
    expect(visibleText(r.posts[0]!.body)).toMatch(/the cloud is slow to answer/);
    expect(r.posts[1]!.body.replace_original).toBe(true);
    expect(visibleText(r.final)).toContain('Account usage');
  });

  it('a fast answer posts once, with no slow notice', async () => {
    const r = await rig.command('account usage');
    expect(r.posts).toHaveLength(1);
    expect(r.final.replace_original).toBe(false);
  });

  it('an unreadable answer says so instead of going silent', async () => {
    rig.sandbox.addFault({ path: '/account/usage', rawBody: '<html>proxy error</html>', status: 200 });
    const r = await rig.command('account usage');
    expect(visibleText(r.final)).toMatch(/could not read/);
  });

  it('a refused connection says the cloud cannot be reached', async () => {
    rig.sandbox.addFault({ path: '/account/usage', destroySocket: true, times: Infinity });
    const r = await rig.command('account usage');
    expect(visibleText(r.final)).toMatch(/could not reach the cloud|did not answer/);
    expect(visibleText(r.final)).toMatch(/Nothing was changed/);
  });
});
