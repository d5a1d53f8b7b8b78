/**
 * Maintenance windows end to end (issue 25 item 3): `/cloud maintenance server 101 2h` in a
 * channel subscribed to server 101, the monitor driven by the rig's clock (`monitorLoop:
 * false`, one `tick()` per pass) against the sandbox powered off from its control API. No
 * alert is posted while the window holds; when it ends, one summary in the channel names the
 * change made through the bot and the alert held back, and what still holds is alerted then.
 * A second bot instance on the same database (a replica) does not post the summary again, nor
 * does a replica that takes over the claim of one that stopped after posting it: it finds that
 * post in the channel's history by its metadata first.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE, BOB, OPS_CHANNEL, type FakeChannel, type FakeUser } from '../rig/workspace.js';
import { appHomeOpenedEnvelope } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { after, postedIn, powerFromPanel } from './rig-alerts.js';
import { SUMMARY_EVENT, SUMMARY_LEASE_MS } from '../../src/monitor/maintenance.js';

const INTERVAL = 60_000;
const RECHECK = 1000;
const MONITOR = { intervalMs: INTERVAL, holdPolls: 2, monitorLoop: false, monitorRecheckMs: RECHECK, postSpacingMs: 0 } as const;
const OFF = /Server `101` is powered off/;

let rig: BotRig;
const { text, until } = rigHelpers(() => rig);
afterEach(async () => {
  await rig?.close();
  expect(rig.slack.violations).toEqual([]);
});

/** The App Home tab as `userId` sees it once published (a signed app_home_opened in, views.publish out). */
async function homeText(userId: string): Promise<string> {
  const before = rig.slack.callsTo('views.publish').length;
  await rig.send.event(appHomeOpenedEnvelope({ userId }));
  await waitFor(() => rig.slack.callsTo('views.publish').slice(before).find((c) => c.response.ok === true), { timeoutMs: 10_000 });
  return visibleText({ blocks: rig.slack.views.home(userId)!.blocks as unknown[] });
}

const summaries = () => postedIn(rig, OPS_CHANNEL.id, /Maintenance `mw_[a-z2-7]{8}` for server `101`/);

describe('a maintenance window on a subscribed server', () => {
  it('holds the alert back, marks nothing resolved, and posts one summary when it ends; what still holds is alerted then', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    await rig.command('subscribe server 101', { userId: BOB.id });
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle(); // the baseline

    const started = await rig.command('maintenance server 101 2h', { userId: BOB.id });
    const shown = visibleText(started.final);
    expect(shown).toMatch(/Maintenance `mw_[a-z2-7]{8}` for server `101` until .* \(2 hours\)/);
    expect(started.cloudRequests).toEqual([]);
    const id = /mw_[a-z2-7]{8}/.exec(shown)![0];
    expect(visibleText((await rig.command('maintenance list')).final)).toContain(`\`${id}\` server \`101\``);
    // Status answers and App Home say so (the window passed to the views as data); another server's does not.
    expect(visibleText((await rig.command('server status 101')).final)).toContain(`In maintenance* until`);
    expect(visibleText((await rig.command('server status 102')).final)).not.toContain('In maintenance');
    expect(await homeText(BOB.id)).toMatch(/Server `101`[^\n]*in maintenance/i);

    // A change made through the bot during the window, and the server off from the panel.
    const msg = await (async () => {
      const before = Date.now();
      await rig.sendCommand('server rename 101 web-1-new', { userId: ALICE.id });
      return rig.statusMessage(OPS_CHANNEL.id, before);
    })();
    await until(msg, '— done');
    await powerFromPanel(rig, 101, 'off');
    const before = rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    for (let i = 0; i < 3; i++) await after(rig, INTERVAL);
    expect(postedIn(rig, OPS_CHANNEL.id, OFF)).toEqual([]);
    expect(rig.slack.messages.inChannel(OPS_CHANNEL.id)).toHaveLength(before);

    // Two hours on: the window ends on the bot's clock; one pass summarises it and alerts what holds.
    await after(rig, 2 * 3_600_000);
    await after(rig, RECHECK);
    const [summary, ...more] = summaries();
    expect(more).toEqual([]);
    const said = text(summary!);
    expect(said).toContain('ended as planned after 2 hours');
    expect(said).toMatch(new RegExp(`\`server\\.rename\` \`PATCH /servers/101/rename\` — \`succeeded\`, by <@${ALICE.id}>`));
    expect(said).toMatch(/Alerts held back[^]*Server `101` powered off/);
    expect(said).not.toMatch(/resolved/i);
    const alerts = postedIn(rig, OPS_CHANNEL.id, OFF).filter((m) => m !== summary);
    expect(alerts).toHaveLength(1); // still off after the window: alerted now, once

    // Another instance on the same database (a replica after the lease) finds it summarised.
    await rig.restartBot();
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    expect(summaries()).toHaveLength(1);
  });

  it('ends early by command: one summary naming who ended it; a bad duration is refused and starts nothing', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const refused = await rig.command('maintenance server 101 soon', { userId: BOB.id });
    expect(visibleText(refused.final)).toContain('must be a duration like 2h, 90m, 1d or 1h30m, or until YYYY-MM-DD HH:MM');
    const past = await rig.command('maintenance account until 2001-01-01 03:00', { userId: BOB.id });
    expect(visibleText(past.final)).toContain('No maintenance window was started');
    expect(visibleText((await rig.command('maintenance list')).final)).toContain('No maintenance window is in force.');

    const started = await rig.command('maintenance server 101 1d', { userId: BOB.id });
    const id = /mw_[a-z2-7]{8}/.exec(visibleText(started.final))![0];
    const ended = await rig.command(`maintenance end ${id}`, { userId: BOB.id });
    expect(visibleText(ended.final)).toContain(`ended early by <@${BOB.id}>`);
    expect(visibleText((await rig.command(`maintenance end ${id}`, { userId: BOB.id })).final)).toContain('is over already');
    await after(rig, RECHECK);
    await after(rig, RECHECK);
    const [summary, ...more] = summaries();
    expect(more).toEqual([]);
    expect(text(summary!)).toContain(`ended early by <@${BOB.id}>`);
    expect(text(summary!)).toContain('none made through the bot');
  });

  it('a replica stopped between claiming the summary and posting it: posted by another once the claim ends; one Slack refused is not retried', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const open = async () => {
      const started = await rig.command('maintenance server 101 1d', { userId: BOB.id });
      const id = /mw_[a-z2-7]{8}/.exec(visibleText(started.final))![0];
      await rig.command(`maintenance end ${id}`, { userId: BOB.id });
      return id;
    };
    const stopped = await open();
    // The replica that claimed it died before posting (its claim holds for one lease).
    const now = rig.clock.now();
    expect(await rig.store.maintenance.claimSummary(stopped, 'dead-replica', now, now + SUMMARY_LEASE_MS)).toBe('fresh');
    await after(rig, RECHECK);
    expect(summaries()).toEqual([]);
    await after(rig, SUMMARY_LEASE_MS);
    expect(summaries()).toHaveLength(1);
    await after(rig, SUMMARY_LEASE_MS + RECHECK);
    expect(summaries()).toHaveLength(1);

    // Slack refuses the post: given up (logged), not posted later by this or another pass.
    rig.slack.failNext('chat.postMessage', 'channel_not_found');
    const refused = await open();
    await after(rig, RECHECK);
    expect((await rig.store.maintenance.get(refused))!.summaryTs).toBeNull();
    await after(rig, 3 * SUMMARY_LEASE_MS);
    expect(summaries()).toHaveLength(1);
    expect(rig.logLines.some((l) => l.includes('could not post a maintenance summary') && l.includes(refused))).toBe(true);
  });

  /** A window over by command in #cloud-ops; its id. */
  async function endedWindow(): Promise<string> {
    const started = await rig.command('maintenance server 101 1d', { userId: BOB.id });
    const id = /mw_[a-z2-7]{8}/.exec(visibleText(started.final))![0];
    await rig.command(`maintenance end ${id}`, { userId: BOB.id });
    return id;
  }
  /**
   * The row as a replica leaves it when it stopped between its post and recording the post's
   * ts (store.setSummaryTs): claimed by it, no ts, its lease running from now.
   */
  function diedBeforeRecording(id: string): void {
    const db = new Database(rig.databasePath);
    db.prepare("UPDATE maintenance_windows SET summary_ts = NULL, summary_claimed_by = 'dead-replica', summary_claimed_until = ? WHERE id = ?").run(rig.clock.now() + SUMMARY_LEASE_MS, id);
    db.close();
  }
  const summaryOf = async (id: string) => (await rig.store.maintenance.get(id))!.summaryTs;

  it('a replica stopped after posting the summary, before recording it: the next holder finds it in the channel, records it and posts nothing', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const id = await endedWindow();
    await after(rig, RECHECK);
    const [posted, ...more] = summaries();
    expect(more).toEqual([]);
    expect(posted!.metadata).toEqual({ event_type: SUMMARY_EVENT, event_payload: { window_id: id } });
    diedBeforeRecording(id);

    // Busy meanwhile: the summary is not the channel's newest message when it is looked for.
    await rig.command('subscribe server 102', { userId: BOB.id });
    await after(rig, SUMMARY_LEASE_MS);
    expect(summaries()).toHaveLength(1);
    expect(await summaryOf(id)).toBe(posted!.ts);
    const [look] = rig.slack.callsTo('conversations.history');
    expect(look).toMatchObject({ params: { channel: OPS_CHANNEL.id, include_all_metadata: 'true' }, response: { ok: true } });
    expect(Number(look!.params.oldest)).toBeLessThan(Number(posted!.ts));
    expect(rig.logLines.some((l) => l.includes('already in its channel') && l.includes(id))).toBe(true);
    await after(rig, 2 * SUMMARY_LEASE_MS);
    expect(summaries()).toHaveLength(1);
    expect(rig.slack.callsTo('conversations.history')).toHaveLength(1);
  });

  it('another app’s message with the same metadata is not taken for the summary: the next holder still posts it', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const id = await endedWindow();
    // A replica claimed the summary and stopped before posting; a second app in the channel (a
    // staging cloudbot, whose window ids are its own) posted a message carrying the same tag.
    await rig.store.maintenance.claimSummary(id, 'dead-replica', rig.clock.now(), rig.clock.now() + SUMMARY_LEASE_MS);
    const foreign = rig.slack.messages.postFromAnotherApp(OPS_CHANNEL.id, 'staging summary', { event_type: SUMMARY_EVENT, event_payload: { window_id: id } });
    await after(rig, RECHECK);
    expect(summaries()).toEqual([]);
    await after(rig, SUMMARY_LEASE_MS);
    const [posted, ...more] = summaries();
    expect(more).toEqual([]);
    expect(posted!.bot_id).not.toBe(foreign.bot_id);
    expect(await summaryOf(id)).toBe(posted!.ts);
    expect(rig.slack.callsTo('conversations.history')).toHaveLength(1);
  });

  it('a post that got no answer is not re-sent: the next holder finds it if it landed, posts it if it did not', async () => {
    rig = await startBotRig({ monitor: MONITOR, slackCallTimeoutMs: 300 });
    // Slack took the post but its answer never came back in time.
    rig.slack.hangNext('chat.postMessage');
    const landed = await endedWindow();
    await after(rig, RECHECK);
    rig.slack.releaseHung();
    expect(summaries()).toHaveLength(1);
    expect(await summaryOf(landed)).toBeNull();
    await after(rig, SUMMARY_LEASE_MS);
    expect(summaries()).toHaveLength(1);
    expect(await summaryOf(landed)).toBe(summaries()[0]!.ts);

    // Slack failed the post (a 5xx: nothing posted): the next holder finds nothing and posts it.
    rig.slack.httpErrorNext('chat.postMessage', 503);
    const lost = await endedWindow();
    await after(rig, RECHECK);
    expect(summaries()).toHaveLength(1);
    await after(rig, SUMMARY_LEASE_MS);
    expect(summaries()).toHaveLength(2);
    expect(await summaryOf(lost)).toBe(summaries()[1]!.ts);
  });

  it('Slack cannot say whether the summary is there: nothing is posted; looked for again on a later pass, and given up if Slack refuses to show the channel', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const id = await endedWindow();
    await after(rig, RECHECK);
    diedBeforeRecording(id);
    // Down for every try of the read (the client's retries included).
    rig.slack.httpErrorNext('conversations.history', 503, 3);
    await after(rig, SUMMARY_LEASE_MS);
    expect(summaries()).toHaveLength(1);
    expect(await summaryOf(id)).toBeNull();
    expect(rig.logLines.some((l) => l.includes('could not look for an earlier maintenance summary') && l.includes(id))).toBe(true);
    await after(rig, SUMMARY_LEASE_MS);
    expect(summaries()).toHaveLength(1);
    expect(await summaryOf(id)).toBe(summaries()[0]!.ts);

    // A refusal will not change by asking again: given up, never posted blind.
    const refused = await endedWindow();
    await after(rig, RECHECK);
    diedBeforeRecording(refused);
    rig.slack.failNext('conversations.history', 'not_in_channel');
    await after(rig, SUMMARY_LEASE_MS);
    await after(rig, 3 * SUMMARY_LEASE_MS);
    expect(summaries()).toHaveLength(2);
    expect(await summaryOf(refused)).toBeNull();
  });

  it('a busy workspace: 600 newer changes in another channel do not push the window’s own change out of its summary', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const started = await rig.command('maintenance server 101 2h', { userId: BOB.id });
    const id = /mw_[a-z2-7]{8}/.exec(visibleText(started.final))![0];
    const before = Date.now();
    await rig.sendCommand('server rename 101 renamed-in-window', { userId: ALICE.id });
    await until(await rig.statusMessage(OPS_CHANNEL.id, before), '— done');
    const now = rig.clock.now();
    for (let i = 0; i < 600; i++) {
      await rig.store.operations.create({ opId: 'server.rename', args: { server: 102, name: `n${i}` }, requestedBy: ALICE.id, channelId: 'CBUSY00001', expiresAt: now + 60_000 });
    }
    await rig.command(`maintenance end ${id}`, { userId: BOB.id });
    await after(rig, RECHECK);
    const [summary, ...more] = summaries();
    expect(more).toEqual([]);
    expect(text(summary!)).toMatch(/`server\.rename` `PATCH \/servers\/101\/rename` — `succeeded`/);
    expect(text(summary!)).not.toContain('none made through the bot');
  });

  it('a window started in another channel holds back only that channel’s alerts, and its summary tells only that channel’s changes', async () => {
    const DEV: FakeChannel = { id: 'CDEV000004', name: 'dev', botIsMember: true };
    rig = await startBotRig({ monitor: MONITOR, extraChannels: [DEV] });
    await rig.command('subscribe server 101', { userId: BOB.id });
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle(); // the baseline

    const started = await rig.command('maintenance server 101 2h', { userId: BOB.id, channelId: DEV.id });
    const id = /mw_[a-z2-7]{8}/.exec(visibleText(started.final))![0];
    expect(visibleText((await rig.command('maintenance list')).final)).toContain('No maintenance window is in force.');
    expect(visibleText((await rig.command('maintenance list', { channelId: DEV.id })).final)).toContain(id);

    const before = Date.now();
    await rig.sendCommand('server rename 101 renamed-in-ops', { userId: ALICE.id });
    await until(await rig.statusMessage(OPS_CHANNEL.id, before), '— done');
    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(postedIn(rig, OPS_CHANNEL.id, OFF)).toHaveLength(1); // #cloud-ops is not muted by #dev's window

    await rig.command(`maintenance end ${id}`, { userId: BOB.id, channelId: DEV.id });
    await after(rig, RECHECK);
    const [summary, ...more] = postedIn(rig, DEV.id, /Maintenance `mw_[a-z2-7]{8}` for server `101`/);
    expect(more).toEqual([]);
    expect(text(summary!)).toContain('none made through the bot');
    expect(text(summary!)).not.toContain('server.rename');
  });

  it('reads an `until` time in the person’s Slack time zone (as schedules do), UTC when Slack gives none, and names the zone', async () => {
    const NY: FakeUser = { id: 'UNEWYORK04', name: 'nina', realName: 'Nina New York', tz: 'America/New_York' };
    const NOZONE: FakeUser = { id: 'UNOZONE005', name: 'zed', realName: 'Zed No Zone', tz: '' };
    rig = await startBotRig({ monitor: MONITOR, extraUsers: [NY, NOZONE], access: { operators: [BOB.id, NY.id, NOZONE.id] } });
    // Two days ahead, as a New York calendar date (en-CA formats YYYY-MM-DD).
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(rig.clock.now() + 2 * 86_400_000);
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    const nineAmUtc = Date.UTC(y, m - 1, d, 9, 0);
    const endOf = async (id: string) => (await rig.store.maintenance.get(id))!.endsAt;

    const ny = await rig.command(`maintenance server 101 until ${day} 09:00`, { userId: NY.id });
    const nyShown = visibleText(ny.final);
    expect(nyShown).toContain(`until \`${day} 09:00 America/New_York\``);
    // 09:00 in New York is 13:00 or 14:00 UTC (EDT or EST), never 09:00 UTC.
    expect([4 * 3_600_000, 5 * 3_600_000]).toContain((await endOf(/mw_[a-z2-7]{8}/.exec(nyShown)![0])) - nineAmUtc);
    expect(visibleText((await rig.command('maintenance list', { userId: NY.id })).final)).toContain(`${day} 09:00 America/New_York`);

    const utc = await rig.command(`maintenance server 102 until ${day} 09:00`, { userId: NOZONE.id });
    const utcShown = visibleText(utc.final);
    expect(utcShown).toContain(`until \`${day} 09:00 UTC\``);
    expect(await endOf(/mw_[a-z2-7]{8}/.exec(utcShown)![0])).toBe(nineAmUtc);

    // `--tz` still wins; a refusal names the zone it read the time in.
    const past = await rig.command('maintenance account until 2001-01-01 03:00', { userId: NY.id });
    expect(visibleText(past.final)).toContain('(`America/New_York`) is not in the future');
    expect(visibleText(past.final)).toContain('Times are read in `America/New_York`');
    const tokyo = await rig.command(`maintenance server 101 until ${day} 23:00 --tz Asia/Tokyo`, { userId: NY.id });
    expect(visibleText(tokyo.final)).toContain(`until \`${day} 23:00 Asia/Tokyo\``);
  });

  it('refuses an `until` date that does not exist (30 February) instead of rolling it into March; nothing starts', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    // 25 February of a coming year: 30 February would roll over to 1 or 2 March, within the 7 days.
    const y = new Date(rig.clock.now()).getUTCFullYear() + 1;
    rig.clock.jump!(Date.UTC(y, 1, 25, 12) - rig.clock.now());
    const r = await rig.command(`maintenance server 101 until ${y}-02-30 09:00 --tz UTC`, { userId: BOB.id });
    expect(visibleText(r.final)).toContain('must be a duration like 2h, 90m, 1d or 1h30m, or until YYYY-MM-DD HH:MM');
    expect(r.cloudRequests).toEqual([]);
    expect(await rig.store.maintenance.listOpen(rig.clock.now())).toEqual([]);
  });
});
