/**
 * Link unfurls end to end (issue 23): a signed `link_shared` event as Slack sends it, for a
 * message a person posted, leads to one `chat.unfurl` (checked by the fake Slack: channel and
 * ts, every URL one the message shared, Block Kit limits) with a live status card per link —
 * the panel's server, worker and security-group pages and a worker's own address. Bad ids and
 * other hosts send nothing; a channel that may not read (deny, no role) gets no card; the
 * card's buttons run as whoever presses them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_WORKER_UUID } from '../../src/sandbox/seed.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, CAROL, OPS_CHANNEL, type FakeChannel } from '../rig/workspace.js';
import { tsAt } from '../rig/ids.js';
import { linkSharedEnvelope } from '../rig/surface-payloads.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { cardOf, PANEL, pressOnCard, share } from './surface-rig.js';

let rig: BotRig;
const cardText = (r: BotRig, channel: string, ts: string, url: string) => {
  const card = cardOf(r, channel, ts, url);
  return card ? visibleText({ blocks: card.blocks as unknown[] }) : undefined;
};

describe('link unfurls', () => {
  beforeAll(async () => {
    rig = await startBotRig();
    await rig.command(`worker status ${SEED_WORKER_UUID}`);
    await waitFor(async () => (await rig.store.known.find('default', 'worker', 'docs-site-0d9c8b7a.workers.example.net'))[0], { timeoutMs: 5000 });
  });
  afterAll(async () => {
    await rig.close();
    expect(rig.slack.violations).toEqual([]);
  });

  it('a panel link to a server unfurls to its live status with read buttons, from one status read', async () => {
    const url = `${PANEL}/servers/101`;
    const shared = await share(rig, [url]);
    expect(shared.cloud).toEqual(['GET /v2/servers/101/status']);
    expect(shared.calls).toHaveLength(1);
    expect(shared.calls[0]!.response.ok).toBe(true);
    expect(shared.calls[0]!.params).toMatchObject({ channel: OPS_CHANNEL.id, ts: shared.ts });
    const said = cardText(rig, shared.channelId, shared.ts, url)!;
    expect(said).toContain('live status of server `101`');
    expect(said).toContain('running');
    expect(said).toContain('ips');
  });

  it('panel pages of a worker and a security group, and a worker’s own address, each unfurl', async () => {
    const urls = [`${PANEL}/workers/${SEED_WORKER_UUID}`, `${PANEL}/security-groups/7/rules`, 'https://docs-site-0d9c8b7a.workers.example.net/guide'];
    const shared = await share(rig, urls);
    expect(shared.cloud.sort()).toEqual([`GET /v2/security-groups/7`, `GET /v2/workers/${SEED_WORKER_UUID}/status`, `GET /v2/workers/${SEED_WORKER_UUID}/status`].sort());
    expect(cardText(rig, shared.channelId, shared.ts, urls[0]!)).toContain('docs-site');
    expect(cardText(rig, shared.channelId, shared.ts, urls[1]!)).toContain('web-default');
    expect(cardText(rig, shared.channelId, shared.ts, urls[2]!)).toContain(`live status of worker \`${SEED_WORKER_UUID}\``);
  });

  it('a link whose id is not an id, another host, or an unknown worker address sends nothing and unfurls nothing', async () => {
    const shared = await share(rig, [`${PANEL}/servers/..%2F..%2Faccount`, `${PANEL}/servers/101%3Fx=1`, 'https://panel.example.com.evil.net/servers/101', 'https://nobody.workers.example.net/', `${PANEL}/security-groups/0`]);
    expect(shared.cloud).toEqual([]);
    expect(shared.calls).toEqual([]);
  });

  it('a retried link_shared (Slack thought the first was lost) reads and unfurls once', async () => {
    const url = `${PANEL}/servers/102`;
    const ts = tsAt(Date.now(), 999_001);
    rig.slack.shareLinks(OPS_CHANNEL.id, ts, [url]);
    const calls = rig.slack.callsTo('chat.unfurl').length;
    const before = rig.sandbox.requests.length;
    const envelope = linkSharedEnvelope({ urls: [url], messageTs: ts });
    expect((await rig.send.event(envelope)).status).toBe(200);
    for (const n of [1, 2]) expect((await rig.send.event(envelope, { headers: { 'x-slack-retry-num': String(n), 'x-slack-retry-reason': 'http_timeout' } })).status).toBe(200);
    await rig.bot.settled();
    expect(rig.slack.callsTo('chat.unfurl').slice(calls)).toHaveLength(1);
    expect(rig.sandbox.requests.slice(before).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['GET /v2/servers/102/status']);
  });

  it('a link in the composer (no channel yet) is not unfurled', async () => {
    const shared = await share(rig, [`${PANEL}/servers/101`], { source: 'composer' });
    expect(shared.cloud).toEqual([]);
    expect(shared.calls).toEqual([]);
  });

  it('a link in a channel the bot was not invited to is not unfurled (nothing read, nothing posted there)', async () => {
    const shared = await share(rig, [`${PANEL}/servers/101`], { botIsMember: false });
    expect(shared.cloud).toEqual([]);
    expect(shared.calls).toEqual([]);
  });

  it('an event that does not say the bot is in the channel is not unfurled either (a card is public)', async () => {
    const shared = await share(rig, [`${PANEL}/servers/101`], { botIsMember: null });
    expect(shared.cloud).toEqual([]);
    expect(shared.calls).toEqual([]);
  });

  it('a button on the card runs its read for whoever presses it, answered privately, the card left as it was', async () => {
    const url = `${PANEL}/servers/101`;
    const shared = await share(rig, [url]);
    const before = rig.sandbox.requests.length;
    const post = await pressOnCard(rig, shared, url, 'ips', CAROL.id);
    expect(post.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(visibleText(post.body)).toContain('185.10.20.11');
    expect(rig.sandbox.requests.slice(before).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['GET /v2/servers/101/ips']);
    const entry = (await rig.store.audit.list({ limit: 5 })).find((e) => e.opId === 'server.ips');
    expect(entry).toMatchObject({ userId: CAROL.id, channelId: shared.channelId });
  });
});

describe('link unfurls under a policy', () => {
  const DENIED: FakeChannel = { id: 'CDENY00024', name: 'elsewhere', botIsMember: true };
  let policed: BotRig;
  beforeAll(async () => {
    policed = await startBotRig({ extraChannels: [DENIED], policy: { default_channel: 'deny', channels: { [OPS_CHANNEL.id]: { admins: [], operators: [], viewers: [] } } } });
  });
  afterAll(async () => {
    await policed.close();
    expect(policed.slack.violations).toEqual([]);
  });

  it('default_channel: deny: no read, no card, the refusal audited', async () => {
    const shared = await share(policed, [`${PANEL}/servers/101`], { channelId: DENIED.id, userId: ALICE.id });
    expect(shared.cloud).toEqual([]);
    expect(shared.calls).toEqual([]);
    const refused = (await policed.store.audit.list({ limit: 5 })).find((e) => e.outcome === 'refused');
    expect(refused).toMatchObject({ userId: ALICE.id, channelId: DENIED.id, opId: 'server.status' });
  });

  it('in a listed channel the same link unfurls', async () => {
    const shared = await share(policed, [`${PANEL}/servers/101`]);
    expect(shared.cloud).toEqual(['GET /v2/servers/101/status']);
    expect(shared.calls).toHaveLength(1);
  });
});
