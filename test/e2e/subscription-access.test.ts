/**
 * Subscriptions are bound by the channel's ceiling and account (issue 21 item 3): what a
 * subscription or a digest posts needs the tier of the equivalent read, in that channel and on
 * that account, checked when it is made and again at every post — after a policy reload too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PolicyFile } from '../../src/access/policy-file.js';
import type { Tier } from '../../src/domain/tier.js';
import { ALICE, type FakeChannel } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, WATCHER_AGENT, type BotRig } from './bot-rig.js';
import { postedIn, setClock } from './rig-alerts.js';

const PROD_TOKEN = 'prod-token-e2e-aaaaaaaaaaaa';
const PROD: FakeChannel = { id: 'CPROD00001', name: 'prod-ops', botIsMember: true };
const READONLY: FakeChannel = { id: 'CREAD00001', name: 'prod-readonly', botIsMember: true };
const NO_ROLES = { admins: [], operators: [], viewers: [] };
const MONITOR = { intervalMs: 60_000, holdPolls: 1, monitorLoop: false, postSpacingMs: 0 } as const;
const DAY = 86_400_000;

/** PROD's ceiling can be lowered by a reload; READONLY only reads. Alice (CLOUD_ADMINS) is an admin. */
let prodCeiling: Tier[] | undefined;
const POLICY = (urls: Record<string, string>): PolicyFile => ({
  version: 1,
  default_account: 'prod',
  accounts: { prod: { base_url: urls.prod!, token_env: 'CLOUD_PROD_TOKEN' } },
  default_channel: 'deny',
  channels: {
    [PROD.id]: { account: 'prod', ...(prodCeiling ? { ceiling: prodCeiling } : {}), ...NO_ROLES },
    [READONLY.id]: { account: 'prod', ceiling: ['read'], ...NO_ROLES },
  },
});

let rig: BotRig;
const { text, latest } = rigHelpers(() => rig);
const start = async () => {
  prodCeiling = undefined;
  rig = await startBotRig({ accounts: { prod: { token: PROD_TOKEN } }, policy: POLICY, reloadPolicy: POLICY, extraChannels: [PROD, READONLY], monitor: MONITOR });
};
afterEach(async () => {
  await rig?.close();
  expect(rig.slack.violations).toEqual([]);
});

const prod = () => rig.accounts.prod!.sandbox;
const invoiceReads = () => prod().requests.filter((r) => r.userAgent === WATCHER_AGENT && r.path === '/account/invoices');
const tick = async (ms = 0) => {
  rig.clock.jump!(ms);
  await rig.bot.monitor.tick();
  await rig.bot.monitor.idle();
};
const say = async (command: string, channelId: string) => visibleText((await rig.command(command, { userId: ALICE.id, channelId })).final);
const unpaid = (i: number) => Object.assign(prod().state.invoices[i]!, { amount_due: 12.5, status: 'unpaid' });

describe('in a read-only channel', () => {
  it('`subscribe invoices` is refused as `/cloud account invoices` is, and nothing is stored or polled', async () => {
    await start();
    expect(await say('account invoices', READONLY.id)).toContain(`channels.${READONLY.id}.ceiling`);
    const said = await say('subscribe invoices', READONLY.id);
    expect(said).toContain(`channels.${READONLY.id}.ceiling`);
    expect(said).toMatch(/Nothing was done/);
    expect(await rig.store.subscriptions.listForChannel(READONLY.id)).toEqual([]);
    unpaid(0);
    await tick();
    await tick(60_000);
    expect(invoiceReads()).toEqual([]);
    expect(postedIn(rig, READONLY.id, /Invoice/)).toEqual([]);
  });

  it('a digest leaves out invoices: they are not read, and the digest says why', async () => {
    await start();
    unpaid(0);
    const day0 = Math.ceil(rig.clock.now() / DAY) * DAY + DAY;
    setClock(rig, day0 + 8 * 3_600_000);
    expect(await say('subscribe digest --at 09:00 --tz UTC', READONLY.id)).toMatch(/Invoices are left out/);
    setClock(rig, day0 + 9 * 3_600_000);
    await tick();
    const digests = postedIn(rig, READONLY.id, /Daily digest/);
    expect(digests).toHaveLength(1);
    expect(text(digests[0]!)).not.toMatch(/9035/);
    expect(text(digests[0]!)).toMatch(/Not shown here: this channel may not read invoices/);
    expect(invoiceReads()).toEqual([]);
  });
});

describe('after a policy reload lowers the ceiling', () => {
  it('an invoice alert ends as no longer watched, and a new unpaid invoice is not posted', async () => {
    await start();
    const said = await say('subscribe invoices', PROD.id);
    expect(said).toMatch(/Subscribed this channel/);
    await tick();
    unpaid(0);
    await tick(60_000);
    const alert = postedIn(rig, PROD.id, /Invoice `#9035` is unpaid/)[0]!;
    expect(alert).toBeDefined();

    prodCeiling = ['read', 'change'];
    expect((await rig.bot.reloadPolicy('signal')).kind).toBe('changed');
    unpaid(1);
    const reads = invoiceReads().length;
    await tick(60_000);
    await tick(60_000);
    expect(text(latest(alert))).toMatch(/No longer watched.*this channel's access policy no longer lets it read this/s);
    expect(text(latest(alert))).not.toMatch(/Resolved/);
    expect(postedIn(rig, PROD.id, /Invoice `#9034`/)).toEqual([]);
    expect(invoiceReads()).toHaveLength(reads); // not polled for a channel that may not read it
  });
});

describe('after a reload narrows the channel and a later one allows it again', () => {
  it('the subscription resumes: it polls again, and posts what holds and what comes', async () => {
    await start();
    expect(await say('subscribe invoices', PROD.id)).toMatch(/Subscribed this channel/);
    await tick();
    unpaid(0);
    await tick(60_000);
    const first = postedIn(rig, PROD.id, /Invoice `#9035` is unpaid/)[0]!;
    expect(first).toBeDefined();

    prodCeiling = ['read', 'change'];
    expect((await rig.bot.reloadPolicy('signal')).kind).toBe('changed');
    await tick(60_000);
    expect(text(latest(first))).toMatch(/No longer watched.*this channel's access policy no longer lets it read this/s);
    const narrowed = invoiceReads().length;
    await tick(60_000);
    expect(invoiceReads()).toHaveLength(narrowed);

    prodCeiling = undefined;
    expect((await rig.bot.reloadPolicy('signal')).kind).toBe('changed');
    await tick(60_000);
    expect(invoiceReads().length).toBeGreaterThan(narrowed); // polled again
    // What still holds is posted anew (the old message stays "no longer watched").
    const again = postedIn(rig, PROD.id, /Invoice `#9035` is unpaid/);
    expect(again).toHaveLength(2);
    expect(text(latest(first))).toMatch(/No longer watched/);
    unpaid(1);
    await tick(60_000);
    expect(postedIn(rig, PROD.id, /Invoice `#9034` is unpaid/)).toHaveLength(1);
    expect(await say('subscriptions', PROD.id)).toMatch(/invoices/);
  });
});
