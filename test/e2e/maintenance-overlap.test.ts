/**
 * Maintenance windows, the audit's cases (issue 25 item 3) through the real rig: overlapping
 * windows on one server or on the account and a server (each summary tells what it held back),
 * an alert posted before a window that goes during it (edited quietly, nothing held back), a
 * window that ends while no bot runs (one summary after the restart), and an `until` time on a
 * day a clock change skips.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BOB, OPS_CHANNEL, type FakeUser } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { after, INTERVAL, MONITOR, OFF, postedIn, powerFromPanel, RECHECK, setClock } from './rig-alerts.js';

let rig: BotRig;
const { text } = rigHelpers(() => rig);
afterEach(async () => {
  await rig?.close();
  expect(rig.slack.violations).toEqual([]);
});

const idOf = (shown: string) => /mw_[a-z2-7]{8}/.exec(shown)![0];
const start = async (words: string) => idOf(visibleText((await rig.command(words, { userId: BOB.id })).final));
const summaryOf = (id: string) => postedIn(rig, OPS_CHANNEL.id, new RegExp(`Maintenance \`${id}\``));
const alerts = () => postedIn(rig, OPS_CHANNEL.id, OFF).filter((m) => !/Maintenance `mw_/.test(text(m)));

async function offUnderTwoWindows(first: string, second: string): Promise<void> {
  rig = await startBotRig({ monitor: MONITOR });
  await rig.command('subscribe server 101', { userId: BOB.id });
  await rig.bot.monitor.tick(); await rig.bot.monitor.idle(); // the baseline
  const a = await start(first);
  const b = await start(second);
  await powerFromPanel(rig, 101, 'off');
  await after(rig, INTERVAL);
  await after(rig, RECHECK);
  // The first ends; the second still holds: its summary says what it held back, no alert yet.
  await after(rig, 3_600_000);
  await after(rig, RECHECK);
  expect(summaryOf(a)).toHaveLength(1);
  expect(text(summaryOf(a)[0]!)).toMatch(/Alerts held back[^]*Server `101` powered off/);
  expect(alerts()).toEqual([]);
  // The second ends: its summary names the alert it held back too, and the alert goes out once.
  await after(rig, 2 * 3_600_000);
  await after(rig, RECHECK);
  expect(summaryOf(b)).toHaveLength(1);
  expect(text(summaryOf(b)[0]!)).toMatch(/Alerts held back[^]*Server `101` powered off/);
  expect(alerts()).toHaveLength(1);
  await after(rig, INTERVAL);
  expect(alerts()).toHaveLength(1);
}

describe('maintenance windows: the audit’s cases', () => {
  it('two windows on one server: each summary names what it held back; one alert after the last', async () => {
    await offUnderTwoWindows('maintenance server 101 1h', 'maintenance server 101 3h');
  });

  it('an account window and a server window: each summary names what it held back', async () => {
    await offUnderTwoWindows('maintenance account 1h', 'maintenance server 101 3h');
  });

  it('an alert posted before the window, whose condition goes during it: edited quietly, nothing held back, nothing posted', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    await rig.command('subscribe server 101', { userId: BOB.id });
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(alerts()).toHaveLength(1);
    const id = await start('maintenance server 101 2h');
    const posts = rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
    const edits = rig.slack.callsTo('chat.update').length;
    await powerFromPanel(rig, 101, 'on');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(rig.slack.messages.inChannel(OPS_CHANNEL.id)).toHaveLength(posts);
    expect(rig.slack.callsTo('chat.update').length).toBeGreaterThan(edits);
    await after(rig, 2 * 3_600_000);
    await after(rig, RECHECK);
    const [summary, ...more] = summaryOf(id);
    expect(more).toEqual([]);
    expect(text(summary!)).toMatch(/Alerts held back[^]*• none/);
    expect(rig.slack.messages.inChannel(OPS_CHANNEL.id)).toHaveLength(posts + 1); // the summary only
  });

  it('a condition that holds through the window: its summary says it was last seen near the end, not only when it came', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    await rig.command('subscribe server 101', { userId: BOB.id });
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    const id = await start('maintenance server 101 1h');
    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    for (let i = 0; i < 30; i++) await after(rig, INTERVAL);
    const seenAt = rig.clock.now();
    const [held] = (await rig.store.maintenance.get(id))!.muted;
    expect(seenAt - held!.lastAt).toBeLessThanOrEqual(INTERVAL);
    expect(held!.lastAt - held!.firstAt).toBeGreaterThan(25 * INTERVAL);
  });

  it('a window that ends while no bot runs: one summary after the restart, and none more', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const id = await start('maintenance server 101 1h');
    await rig.restartBot();
    rig.clock.jump!(3 * 3_600_000); // the new instance's first pass comes after the end
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    expect(summaryOf(id)).toHaveLength(1);
    expect(text(summaryOf(id)[0]!)).toContain('ended as planned after 1 hour');
    await rig.restartBot();
    await after(rig, INTERVAL);
    expect(summaryOf(id)).toHaveLength(1);
  });

  it('an `until` on a spring-forward day: the answer names the end that will be, in the zone', async () => {
    const NY: FakeUser = { id: 'UNEWYORK04', name: 'nina', realName: 'Nina New York', tz: 'America/New_York' };
    rig = await startBotRig({ monitor: MONITOR, extraUsers: [NY], access: { operators: [BOB.id, NY.id] } });
    const y = new Date(rig.clock.now()).getUTCFullYear() + 1;
    // The second Sunday of March, New York's spring-forward day (02:00 → 03:00).
    const day = 8 + ((7 - new Date(Date.UTC(y, 2, 8)).getUTCDay()) % 7);
    setClock(rig, Date.UTC(y, 2, day - 1, 12));
    const ymd = `${y}-03-${String(day).padStart(2, '0')}`;
    const r = await rig.command(`maintenance server 101 until ${ymd} 02:30`, { userId: NY.id });
    const shown = visibleText(r.final);
    const end = (await rig.store.maintenance.get(idOf(shown)))!.endsAt;
    // 02:30 does not exist that day: whatever the end is, the answer says it as the zone's clock reads it.
    const d = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(end);
    expect(shown).toContain(`until \`${ymd} ${d} America/New_York\``);
    // Too far ahead: refused, and nothing stored.
    setClock(rig, Date.UTC(y, 10, 1, 12));
    const far = await rig.command(`maintenance server 102 until ${y}-11-30 01:30`, { userId: NY.id });
    expect(visibleText(far.final)).toContain('a maintenance window lasts at most 7 days');
    expect((await rig.store.maintenance.listOpen(rig.clock.now())).map((w) => w.resource)).toEqual([]);
  });
});
