/**
 * Proactive notifications end to end (issue 13): the real bot, subscribed through
 * `/cloud subscribe`, its monitor driven by the rig's clock (`monitorLoop: false`, one
 * `tick()` per pass) against the sandbox changed from its control API, as the provider's
 * panel would. Each test checks what the cloud received (the monitor's polls) and what
 * people saw (channel messages, edits, thread replies).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BOB, OPS_CHANNEL, type FakeChannel } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig, type BotRigOptions } from './bot-rig.js';
import { DIGEST_LIST_MAX } from '../../src/views/digest-views.js';
import { after, alertButtons, monitorPolls, postedIn, powerFromPanel, setClock, INTERVAL, MONITOR, OFF, RECHECK, STATUS } from './rig-alerts.js';

let rig: BotRig;
const { text, latest } = rigHelpers(() => rig);
const start = async (options: BotRigOptions = {}) => (rig = await startBotRig({ monitor: MONITOR, ...options }));
afterEach(async () => {
  await rig?.close();
  expect(rig.slack.violations).toEqual([]);
});

const channelPosts = (channel = OPS_CHANNEL.id) => rig.slack.messages.inChannel(channel);
const updatesOf = (ts: string) => rig.slack.callsTo('chat.update').filter((c) => c.params.ts === ts);
const thread = (m: { channel: string; ts: string }) => rig.slack.messages.thread(m.channel, m.ts);

/** `/cloud subscribe …` as Bob (an operator) in `channel`; returns the new subscription's id. */
async function subscribe(what: string, channel = OPS_CHANNEL.id): Promise<string> {
  const r = await rig.command(`subscribe ${what}`, { userId: BOB.id, channelId: channel });
  const id = /sub_[a-z2-7]{10}/.exec(visibleText(r.final))?.[0];
  if (!id) throw new Error(`no subscription id in: ${visibleText(r.final)}`);
  return id;
}

describe('a server powered off from the panel', () => {
  it('is alerted once however many polls see it off, resolved once when on, then nothing more', async () => {
    await start();
    await subscribe('server 101');
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle(); // first sight: the baseline, nothing to say
    expect(monitorPolls(rig, STATUS)).toHaveLength(1);
    const before = channelPosts().length;

    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL); // seen off once: held
    expect(channelPosts()).toHaveLength(before);
    await after(rig, RECHECK); // seen off twice: it counts
    const fresh = channelPosts().slice(before);
    expect(fresh).toHaveLength(1);
    const alert = fresh[0]!;
    expect(text(alert)).toMatch(OFF);
    expect(Object.keys(alertButtons(alert))).toEqual(['Server status', 'Watch', 'Credentials', 'Snooze 1 h', 'Snooze 1 day']);

    for (let i = 0; i < 5; i++) await after(rig, INTERVAL);
    expect(monitorPolls(rig, STATUS)).toHaveLength(1 + 2 + 5); // one per pass that was due
    expect(channelPosts()).toHaveLength(before + 1);
    expect(thread(alert)).toEqual([]);
    expect(updatesOf(alert.ts)).toEqual([]);

    await powerFromPanel(rig, 101, 'on');
    await after(rig, INTERVAL);
    expect(text(latest(alert))).toMatch(OFF); // held: not yet resolved
    await after(rig, RECHECK);
    const resolved = text(latest(alert));
    expect(resolved).toMatch(/Resolved: Server `101` is back on after 6 minutes/);
    expect(alertButtons(latest(alert))).toEqual({}); // buttons only while it fires
    expect(updatesOf(alert.ts)).toHaveLength(1);
    expect(thread(alert).map(text)).toEqual([expect.stringMatching(/Resolved: Server `101` is back on after 6 minutes/)]);

    for (let i = 0; i < 4; i++) await after(rig, INTERVAL);
    expect(monitorPolls(rig, STATUS)).toHaveLength(1 + 2 + 5 + 2 + 4);
    expect(channelPosts()).toHaveLength(before + 1);
    expect(thread(alert)).toHaveLength(1);
    expect(updatesOf(alert.ts)).toHaveLength(1);
  });
});

describe('one poller for every channel', () => {
  const CHANNELS: FakeChannel[] = Array.from({ length: 10 }, (_, i) => ({ id: `CSUBS0000${i}`, name: `subs-${i}`, botIsMember: true }));

  it('10 channels subscribed to one server cause one request per interval; each channel gets its alert', async () => {
    await start({ extraChannels: CHANNELS });
    for (const c of CHANNELS) await subscribe('server 101', c.id);
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    expect(monitorPolls(rig, STATUS)).toHaveLength(1);
    for (let i = 1; i <= 5; i++) {
      await after(rig, INTERVAL);
      // More passes within the interval ask nothing more.
      await after(rig, 5000);
      await after(rig, 5000);
      expect(monitorPolls(rig, STATUS)).toHaveLength(1 + i);
    }
    expect(monitorPolls(rig, /^\/servers\//)).toHaveLength(6); // nothing else was read either

    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(monitorPolls(rig, STATUS)).toHaveLength(8); // the hold's re-check is the one extra
    for (const c of CHANNELS) expect(postedIn(rig, c.id, OFF)).toHaveLength(1);
  });
});

describe('flapping', () => {
  it('off for one poll then on again posts nothing; off held for two polls posts the alert', async () => {
    await start();
    await subscribe('server 101');
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    const before = channelPosts().length;

    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL); // seen off once
    await powerFromPanel(rig, 101, 'on');
    await after(rig, RECHECK); // back on before it held
    for (let i = 0; i < 3; i++) await after(rig, INTERVAL);
    expect(monitorPolls(rig, STATUS)).toHaveLength(1 + 2 + 3); // it looked, and said nothing
    expect(channelPosts()).toHaveLength(before);
    expect(rig.slack.callsTo('chat.postMessage').filter((c) => c.params.channel === OPS_CHANNEL.id && /powered off/.test(JSON.stringify(c.params)))).toEqual([]);

    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL);
    expect(channelPosts()).toHaveLength(before);
    await after(rig, RECHECK);
    expect(postedIn(rig, OPS_CHANNEL.id, OFF)).toHaveLength(1);
    expect(channelPosts()).toHaveLength(before + 1);
  });
});

describe('muting', () => {
  it('a muted subscription posts nothing and is listed as muted; after the mute a later change is alerted', async () => {
    await start();
    const id = await subscribe('server 101');
    const muted = await rig.command(`mute ${id} 2h`, { userId: BOB.id });
    expect(visibleText(muted.final)).toMatch(new RegExp(`Muted .*${id}.* until`));
    expect(muted.cloudRequests).toEqual([]);
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    const before = channelPosts().length;

    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    await after(rig, INTERVAL);
    expect(monitorPolls(rig, STATUS)).toHaveLength(4); // still polled: the state is kept up to date
    expect(channelPosts()).toHaveLength(before);
    const list = visibleText((await rig.command('subscriptions')).final);
    expect(list).toMatch(new RegExp(`${id}.*muted until`));
    expect(list).toMatch(/1 muted/);

    await powerFromPanel(rig, 101, 'on');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(channelPosts()).toHaveLength(before);

    await after(rig, 2 * 3_600_000); // the mute ends
    expect(visibleText((await rig.command('subscriptions')).final)).not.toMatch(/muted/);
    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(postedIn(rig, OPS_CHANNEL.id, OFF)).toHaveLength(1);
    expect(channelPosts()).toHaveLength(before + 1);
  });
});

describe('the daily digest', () => {
  const DAY = 86_400_000;
  const at = (day: number, h: number, m: number) => day + h * 3_600_000 + m * 60_000;
  const digests = () => postedIn(rig, OPS_CHANNEL.id, /Daily digest/);
  const reads = () => monitorPolls(rig, /^\/account\/(usage|invoices)$/).length;

  it('is posted at its time once a day, across a restart, and again the next day', async () => {
    await start();
    const day0 = Math.ceil(rig.clock.now() / DAY) * DAY + DAY; // a UTC midnight ahead
    const iso = (d: number) => new Date(d).toISOString().slice(0, 10);
    setClock(rig, at(day0, 8, 58));
    await subscribe('digest --at 09:00 --tz UTC');
    setClock(rig, at(day0, 8, 59));
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    expect(digests()).toEqual([]);
    expect(reads()).toBe(0);

    setClock(rig, at(day0, 9, 0));
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    expect(digests().map(text)).toEqual([expect.stringContaining(`Daily digest — ${iso(day0)}`)]);
    expect(reads()).toBe(4); // usage and the seeded account's 3 pages of invoices

    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    await after(rig, 60_000);
    await after(rig, 3 * 3_600_000);
    expect(digests()).toHaveLength(1);

    await rig.restartBot();
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    await after(rig, 5 * 3_600_000);
    expect(digests()).toHaveLength(1);
    expect(reads()).toBe(4);

    setClock(rig, at(day0 + DAY, 8, 59));
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    expect(digests()).toHaveLength(1);
    setClock(rig, at(day0 + DAY, 9, 0));
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    expect(digests().map(text)).toEqual([expect.stringContaining(iso(day0)), expect.stringContaining(`Daily digest — ${iso(day0 + DAY)}`)]);
    expect(reads()).toBe(8);
  });

  it('counts every server change of the last 24 hours, those beyond the ones it lists too', async () => {
    await start();
    const day0 = Math.ceil(rig.clock.now() / DAY) * DAY + DAY;
    setClock(rig, at(day0, 8, 0));
    const server = await subscribe('server 101');
    await subscribe('digest --at 09:00 --tz UTC');
    // 60 short incidents of server 101 overnight: more than the digest reads from the store.
    for (let i = 0; i < 60; i++) {
      const started = at(day0, 2, i);
      const { record } = await rig.store.alerts.open({ subscriptionId: server, channelId: OPS_CHANNEL.id, condition: 'power-off', startedAt: started, detail: { state: 'stopped' } });
      await rig.store.alerts.resolve(record.id, started + 30_000);
    }
    setClock(rig, at(day0, 9, 0));
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    const [digest, ...more] = digests();
    expect(more).toEqual([]);
    expect(digest!.text).toMatch(/: 60 server changes, 0 failed builds,/);
    expect(text(digest!)).toContain(`+${60 - DIGEST_LIST_MAX} more in the last 24 hours`);
  });
});
