/**
 * What a record shows or does is decided by the record (issue 21): the App Home tab lists only
 * the watches and subscriptions this person may read — in the record's channel, on its
 * account — and a click on an alert's button or on "Keep watching" is checked against the
 * alert or watch it acts on (its channel, its account, the buttons drawn on it), never against
 * the channel or the value a payload claims. Two accounts, a read-only channel that may not
 * use prod, and a viewer whose only role is in that channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WatchRecord } from '../../src/store/watch-store.js';
import { alertActions } from '../../src/monitor/alerting.js';
import { buildAlertMessage } from '../../src/views/alert-views.js';
import { buildDeadlineReply } from '../../src/views/watch-views.js';
import { md } from '../../src/views/mrkdwn.js';
import { appHomeOpenedEnvelope, blockActionsPayload } from '../rig/payloads.js';
import type { FakeMessage } from '../rig/fake-slack.js';
import type { MessageLike } from '../rig/payloads.js';
import type { JsonObject } from '../rig/json.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, CAROL, type FakeChannel } from '../rig/workspace.js';
import { NO_ROLES, twoAccountPolicy } from './two-accounts.js';
import { startBotRig, visibleText, WATCHER_AGENT, type BotRig } from './bot-rig.js';

const DAVE = 'UDAVE00004'; // on no list (CLOUD_VIEWERS is set)
const ERIN = 'UERIN00005'; // a viewer only in READONLY
const PEOPLE = [DAVE, ERIN].map((id) => ({ id, name: id.toLowerCase(), realName: id }));
const STAGE: FakeChannel = { id: 'C0STAGING1', name: 'staging', botIsMember: true };
const READONLY: FakeChannel = { id: 'C0READONL1', name: 'readonly', botIsMember: true };
const PROD: FakeChannel = { id: 'C0PRODOPS1', name: 'prod-ops', botIsMember: true };

const POLICY = (urls: Record<string, string>) =>
  twoAccountPolicy(urls, {
    [STAGE.id]: { account: 'staging', accounts: ['prod'], ...NO_ROLES },
    [READONLY.id]: { account: 'staging', ceiling: ['read'], ...NO_ROLES, viewers: [ERIN] },
    [PROD.id]: { account: 'prod', ceiling: ['read', 'change', 'billing'], ...NO_ROLES },
  });

let rig: BotRig;
beforeAll(async () => {
  rig = await startBotRig({
    accounts: { prod: { token: 'prod-token-e2e-cccccccccccc' }, staging: { token: 'staging-token-e2e-dddddddd' } },
    policy: POLICY,
    extraChannels: [STAGE, READONLY, PROD],
    extraUsers: PEOPLE,
    access: { admins: [ALICE.id], operators: [BOB.id], viewers: [CAROL.id] },
    monitor: { monitorLoop: false },
  });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

/** A watch as `--watch` leaves it: its own message in the channel, whose thread gets the updates. */
const watch = async (kind: 'server' | 'worker', resource: string, channelId: string, account: string) => {
  const now = rig.clock.now();
  const parent = await rig.bot.slackApi.postMessage({ channel: channelId, text: `Watching ${resource}`, blocks: [] });
  return rig.store.watches.create({ kind, resource, channelId, account, threadTs: parent.ts, requestedBy: ALICE.id, intervalMs: 60_000, startedAt: now, deadlineAt: now + 3_600_000, nextPollAt: now + 3_600_000 });
};
const subscribe = (kind: 'server' | 'usage' | 'invoices', resource: string, channelId: string, account: string) =>
  rig.store.subscriptions.add({ channelId, account, kind, resource, createdBy: BOB.id, createdAt: rig.clock.now() });

describe('App Home shows only what the person may read', () => {
  beforeAll(async () => {
    await watch('server', 'home-prod-in-staging', STAGE.id, 'prod');
    await watch('worker', 'home-staging-in-readonly', READONLY.id, 'staging');
    await subscribe('invoices', '', PROD.id, 'prod');
    await subscribe('server', 'sub-readonly', READONLY.id, 'staging');
    await subscribe('usage', '', STAGE.id, 'prod');
  });

  async function home(userId: string): Promise<{ watches: string; subs: string }> {
    const before = rig.slack.callsTo('views.publish').length;
    await rig.send.event(appHomeOpenedEnvelope({ userId }));
    await waitFor(() => rig.slack.callsTo('views.publish').slice(before).find((c) => c.params.user_id === userId && c.response.ok === true), { timeoutMs: 10_000 });
    const text = visibleText({ blocks: (rig.slack.views.home(userId) as JsonObject).blocks });
    const watches = text.split('Active watches')[1]!.split('Subscriptions')[0]!;
    const subs = text.split('Subscriptions')[1]!.split(/Your recent activity|Recent activity/)[0]!;
    return { watches, subs };
  }

  it('someone on no list sees no channel’s watches or subscriptions', async () => {
    const { watches, subs } = await home(DAVE);
    expect(watches).not.toMatch(/home-/);
    expect(watches).toMatch(/No active watches/);
    expect(subs).not.toMatch(/<#C/);
  });

  it('a viewer only in the read-only channel sees that channel’s records, not #staging’s prod watch nor prod’s invoices', async () => {
    const { watches, subs } = await home(ERIN);
    expect(watches).toMatch(/home-staging-in-readonly/);
    expect(watches).not.toMatch(/home-prod-in-staging/);
    expect(subs).toMatch(new RegExp(`<#${READONLY.id}>: server \`sub-readonly\``));
    expect(subs).not.toMatch(new RegExp(`<#${STAGE.id}>|<#${PROD.id}>|unpaid`));
  });

  it('a viewer sees the reads of every channel they may read in, but not the invoices (billing) subscription', async () => {
    const { watches, subs } = await home(CAROL.id);
    expect(watches).toMatch(/home-prod-in-staging[\s\S]*home-staging-in-readonly|home-staging-in-readonly[\s\S]*home-prod-in-staging/);
    expect(subs).toMatch(new RegExp(`<#${STAGE.id}>: usage`));
    expect(subs).not.toMatch(/unpaid/);
  });

  it('an admin sees prod’s invoices subscription, where the channel allows billing', async () => {
    const { subs } = await home(ALICE.id);
    expect(subs).toMatch(new RegExp(`<#${PROD.id}>: new unpaid`));
  });
});

describe('Keep watching is checked against the watch', () => {
  const expired = async (channelId: string, account: string): Promise<WatchRecord> => {
    const w = await watch('server', '101', channelId, account);
    return (await rig.store.watches.move(w.id, ['active'], 'expired', rig.clock.now()))!;
  };
  /** The deadline reply carrying the button, as the watch's thread shows it (in `channel`, as the payload says). */
  const keepButton = (w: WatchRecord, channel: string): MessageLike => {
    const reply = buildDeadlineReply(w, md`server 101`, undefined, rig.clock.now());
    return { channel, ts: '1700000000.000200', thread_ts: w.threadTs!, text: reply.text, blocks: reply.blocks };
  };
  const click = async (w: WatchRecord, channel: string, userId: string) => {
    const before = rig.slack.messages.ephemeral(userId).length;
    await rig.send.interaction(blockActionsPayload({ actionId: 'watch_keep', message: keepButton(w, channel), userId, channelId: channel }));
    return waitFor(() => rig.slack.messages.ephemeral(userId).slice(before).at(-1), { timeoutMs: 5000 });
  };
  const status = async (w: WatchRecord) => (await rig.store.watches.get(w.id))!.status;

  it('clicked from another channel (read-only, no prod), a prod watch of #staging is not resumed', async () => {
    const w = await expired(STAGE.id, 'prod');
    const said = await click(w, READONLY.id, CAROL.id);
    expect(visibleText({ text: said.text, blocks: said.blocks })).toMatch(/could not be read|nothing was done/i);
    expect(await status(w)).toBe('expired');
  });

  it('a watch on an account its channel may no longer use is not resumed there', async () => {
    const w = await expired(READONLY.id, 'prod');
    const said = await click(w, READONLY.id, CAROL.id);
    expect(visibleText({ text: said.text, blocks: said.blocks })).toMatch(/prod/);
    expect(await status(w)).toBe('expired');
    expect((await rig.store.audit.list({ userId: CAROL.id, limit: 5 }))[0]).toMatchObject({ outcome: 'refused', errorCode: 'ACCOUNT_NOT_ALLOWED', channelId: READONLY.id });
  });

  it('in its own channel, by someone who may read there on its account, it resumes', async () => {
    const w = await expired(STAGE.id, 'prod');
    await rig.send.interaction(blockActionsPayload({ actionId: 'watch_keep', message: keepButton(w, STAGE.id), userId: CAROL.id, channelId: STAGE.id }));
    await waitFor(async () => ((await status(w)) !== 'expired' ? true : undefined), { timeoutMs: 5000 });
    await waitFor(() => rig.slack.messages.all().find((m) => m.channel === STAGE.id && m.thread_ts === w.threadTs && /Watching again/.test(m.text)), { timeoutMs: 5000 });
  });
});

describe('an alert’s buttons are checked against the alert', () => {
  /** A firing alert of `sub`, posted as the monitor posts it. */
  async function alertOf(sub: Awaited<ReturnType<typeof subscribe>>['record']): Promise<FakeMessage> {
    const opened = await rig.store.alerts.open({ subscriptionId: sub.id, channelId: sub.channelId, condition: 'power-off', startedAt: rig.clock.now(), detail: {} });
    const reply = buildAlertMessage({
      kind: sub.kind, resource: sub.resource, condition: 'power-off', detail: {}, status: 'firing', startedAt: opened.record.startedAt, resolvedAt: null,
      now: rig.clock.now(), subscriptionId: sub.id, actions: alertActions('server', sub.resource, sub.account),
    });
    const posted = await rig.bot.slackApi.postMessage({ channel: sub.channelId, text: reply.text, blocks: reply.blocks });
    await rig.store.alerts.setMessage(opened.record.id, posted.ts);
    return rig.slack.messages.get(posted.channel, posted.ts)!;
  }
  const buttonId = (m: FakeMessage, label: string) => JSON.stringify(m.blocks).match(new RegExp(`"text":"${label}"[^}]*}[^}]*"action_id":"([^"]+)"`))?.[1] ?? `missing ${label}`;
  async function clickAs(m: FakeMessage, label: string, userId: string, channelId: string, value?: unknown) {
    const blocks = structuredClone(m.blocks) as { elements?: { text?: { text: string }; value?: string }[] }[];
    if (value !== undefined) blocks.flatMap((b) => b.elements ?? []).find((e) => e.text?.text === label)!.value = JSON.stringify(value);
    const responseUrl = rig.responses.next();
    const from = { prod: rig.accounts.prod!.sandbox.requests.length, staging: rig.accounts.staging!.sandbox.requests.length };
    await rig.send.interaction(blockActionsPayload({ actionId: buttonId(m, label), message: { ...m, blocks }, userId, channelId, responseUrl }));
    const posts = await waitFor(() => rig.responses.postsTo(responseUrl).find((p) => !String(p.body.text).includes('slow to answer')), { timeoutMs: 5000 });
    const asked = [...rig.accounts.prod!.sandbox.requests.slice(from.prod), ...rig.accounts.staging!.sandbox.requests.slice(from.staging)].filter((q) => q.userAgent !== WATCHER_AGENT).map((q) => q.path);
    return { shown: visibleText(posts.body), asked };
  }

  it('the payload naming another channel (where secrets are allowed) does not lift the alert channel’s ceiling', async () => {
    const { record } = await subscribe('server', '101', READONLY.id, 'staging');
    const m = await alertOf(record);
    const here = await clickAs(m, 'Credentials', ALICE.id, READONLY.id);
    expect(here.asked).toEqual([]);
    const there = await clickAs(m, 'Credentials', ALICE.id, STAGE.id);
    expect(there.asked).toEqual([]);
    expect(there.shown).toMatch(/out of date|could not be read/);
  });

  it('a value naming another account than the alert’s runs nothing', async () => {
    const { record } = await subscribe('server', '101', STAGE.id, 'prod');
    const m = await alertOf(record);
    const ok = await clickAs(m, 'Server status', CAROL.id, STAGE.id);
    expect(ok.asked).toEqual(['/servers/101/status']);
    const forged = await clickAs(m, 'Server status', CAROL.id, STAGE.id, { op: 'server.status', args: { server: '101' }, account: 'staging' });
    expect(forged.asked).toEqual([]);
    expect(forged.shown).toMatch(/out of date|could not be read/);
  });
});
