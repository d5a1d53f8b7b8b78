/**
 * Schedules end to end (issue 25) on the real wire: the slash command schedules, the bot's
 * scheduler is ticked by hand on the rig's jump clock (shared with the sandbox), and what the
 * cloud received and the channel saw is asserted. A scheduled run goes through the same path as
 * a typed command: its status message, its audit entry ("scheduled by …"), one request.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appHomeOpenedEnvelope } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { CARD_WAIT_MS, confirmCardKey } from '../../src/schedule/arm.js';
import type { BackupState } from '../../src/sandbox/state.js';
import { ALICE, CAROL, OPS_CHANNEL } from '../rig/workspace.js';
import { startBotRig, visibleText, type BotRig, type JumpClock } from './bot-rig.js';
import { startScheduleRig } from './schedule-rig.js';

let h: Awaited<ReturnType<typeof startScheduleRig>>;
let rig: BotRig;
let clock: JumpClock;
const GRACE = 60 * 60_000;

beforeAll(async () => {
  h = await startScheduleRig(GRACE);
  ({ rig, clock } = h);
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

// The schedule rig's helpers (schedule-rig.ts), read once the rig is up.
const text = (...a: Parameters<typeof h.text>) => h.text(...a);
const channelSince = (n: number) => h.channelSince(n);
const posted = () => h.posted();
const tick = () => h.tick();
const scheduled = (id: string) => h.scheduled(id);
const idIn = (answer: string) => h.idIn(answer);
const jumpTo = (at: number) => h.jumpTo(at);
const scheduledWithCard = (line: string) => h.scheduledWithCard(line);
const scheduleConfirmed = (line: string) => h.scheduleConfirmed(line);
const oldestFirst = (server: number) => h.oldestFirst(server);

describe('scheduling', () => {
  it('a read, in the person’s Slack time zone (named), runs at its time and posts its answer in the channel', async () => {
    const r = await rig.command('schedule "server status 101" daily 02:00');
    const answer = visibleText(r.final);
    expect(answer).toMatch(/Scheduled `sch_[0-9a-f]{10}`: `\/cloud server status 101` `daily 02:00` \(`Europe\/Berlin`\), next run `\d{4}-\d\d-\d\d 02:00 Europe\/Berlin`/);
    expect(r.cloudRequests).toEqual([]); // scheduling asks nothing of the cloud
    const s = await scheduled(idIn(answer));
    expect(s).toMatchObject({ status: 'active', createdBy: ALICE.id, command: 'server status 101', when: { kind: 'cron', expr: '0 2 * * *', tz: 'Europe/Berlin' } });

    const list = visibleText((await rig.command('schedules')).final);
    expect(list).toContain(s.id);
    expect(list).toContain('next `');
    // The App Home tab lists it with its next run, in its zone.
    const before = rig.slack.callsTo('views.publish').length;
    await rig.send.event(appHomeOpenedEnvelope({ userId: ALICE.id }));
    await waitFor(() => rig.slack.callsTo('views.publish').slice(before).find((c) => c.response.ok === true), { timeoutMs: 10_000 });
    const home = visibleText({ blocks: rig.slack.views.home(ALICE.id)!.blocks as unknown[] });
    expect(home).toMatch(new RegExp(`Schedules[\\s\\S]*${s.id}.*daily 02:00.*Europe/Berlin.*next \`\\d{4}-\\d\\d-\\d\\d 02:00 Europe/Berlin\``));

    const from = rig.sandbox.requests.length;
    const seen = posted();
    await tick(); // not due yet
    expect(rig.sandbox.requests.length).toBe(from);
    jumpTo(s.nextAt! + 1000);
    await tick();
    expect(rig.sandbox.requests.slice(from).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['GET /v2/servers/101/status']);
    const said = channelSince(seen);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`Scheduled by <@${ALICE.id}> (\`${s.id}\``);
    expect(said[0]).toMatch(/running/);
    const after = await scheduled(s.id);
    expect(after.nextAt).toBe(s.nextAt! + 86_400_000);
    expect(after.lastResult).toBe('answered');
    const read = (await rig.store.audit.list({ limit: 20 })).find((e) => e.opId === 'server.status');
    expect(read).toMatchObject({ userId: ALICE.id, outcome: 'succeeded', detail: `scheduled by ${ALICE.id} (schedule ${s.id})` });
    await tick(); // the same occurrence never runs twice
    expect(rig.sandbox.requests.length).toBe(from + 1);
    await rig.command(`schedule cancel ${s.id}`);
  });

  it('a change runs once through the change flow, audited as scheduled by its creator; a crash after sending sends nothing again', async () => {
    const r = await rig.command('schedule "backup create 101 --name nightly" in 2h --tz America/New_York');
    const answer = visibleText(r.final);
    expect(answer).toContain('(`America/New_York`)');
    const s = await scheduled(idIn(answer));
    const from = rig.sandbox.requests.length;
    jumpTo(s.nextAt! + 1);
    await tick();
    expect(rig.mutations(from).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['POST /v2/servers/101/backups']);
    const status = rig.slack.messages.inChannel(OPS_CHANNEL.id).at(-1)!;
    expect(text(status)).toContain('Back up server `101` as `nightly`');
    expect(text(status)).toContain(`Scheduled by <@${ALICE.id}> (\`${s.id}\`)`);
    const audit = (await rig.store.audit.list({ limit: 20 })).find((e) => e.opId === 'backup.create' && e.outcome === 'succeeded');
    expect(audit).toMatchObject({ userId: ALICE.id, confirmedBy: ALICE.id });
    expect(audit!.detail).toBe(`scheduled by ${ALICE.id} (schedule ${s.id}): POST /servers/101/backups`);
    expect(await scheduled(s.id)).toMatchObject({ status: 'done', nextAt: null, lastResult: 'succeeded' });

    // The replica died after the cloud took the request and before it noted the run done: the
    // run is left running, its lease over. Another replica takes it over and sends nothing.
    h.replicaDied(s.id, { reopen: true });
    await tick();
    expect(rig.mutations(from)).toHaveLength(1);
    const runs = await rig.store.schedules.runs(s.id);
    expect(runs).toMatchObject([{ status: 'done', result: 'already started by a run that stopped' }]);
  });

  it('a replica stopped before its scheduled change was confirmed: the run taken over closes that record and sends the change once', async () => {
    const r = await rig.command('schedule "backup create 101 --name again" in 3h');
    const s = await scheduled(idIn(visibleText(r.final)));
    const from = rig.sandbox.requests.length;
    // The first attempt's status message never gets its answer: the run stops there, its record pending.
    const stuck = await h.firstAttemptStuck(s);
    // Its replica dies: another takes the run over once the lease is gone.
    h.replicaDied(s.id);
    await rig.bot.scheduler.tick();
    await waitFor(async () => ((await rig.store.schedules.runs(s.id))[0]?.status === 'done' ? true : undefined), { timeoutMs: 5000 });
    // The first attempt's post lands late (here only: its replica is dead in the story): its record is closed, it sends nothing.
    rig.slack.releaseHung();
    await rig.bot.scheduler.settled();
    expect(rig.mutations(from).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['POST /v2/servers/101/backups']);
    expect(await rig.store.operations.get(stuck.id)).toMatchObject({ status: 'cancelled', errorCode: 'RUN_TAKEN_OVER', confirmedAt: null });
    const runs = await rig.store.schedules.runs(s.id);
    expect(runs).toMatchObject([{ status: 'done', result: 'succeeded' }]);
  });

  it('refuses what it cannot run later, and says so without storing anything', async () => {
    for (const [line, words] of [
      ['schedule "server status 101" tomorrow', 'not a time'],
      ['schedule "server status 101" daily 02:00 --tz Mars/Olympus', 'not a time zone'],
      ['schedule "backup create" daily 02:00', 'backup create'],
      ['schedule "server status 101" daily 02:00 --keep 3', '--keep'],
      ['schedule "schedules" daily 02:00', 'cannot schedule schedules'],
      // Answered to the asker alone; a schedule would post the answer in the channel.
      ['schedule "server credentials 101" in 1h', '/cloud server credentials` is answered only to the person who asks'],
      ['schedule "audit" daily 02:00', '/cloud audit list` is answered only to the person who asks'],
      ['schedule "account invoices" daily 02:00', '/cloud account invoices` is answered only to the person who asks'],
      ['schedule "policy" daily 02:00', '/cloud policy show` is answered only to the person who asks'],
      // The bot's own changes: not "answered only to the asker" (they answer nobody privately).
      ['schedule "mute sub_aaaaaaaaaa 2h" daily 02:00', '/cloud mute set` changes the bot’s own settings, not the cloud'],
      ['schedule "maintenance server 101 1h" daily 02:00', '/cloud maintenance server` changes the bot’s own settings, not the cloud'],
    ] as const) {
      const r = await rig.command(line);
      expect(visibleText(r.final), line).toContain(words);
    }
    expect(await rig.store.schedules.list(OPS_CHANNEL.id)).toEqual([]);
  });

  it('refuses a change its entry’s own check refuses (the spec’s firewall limits, a deploy without a repository), storing nothing', async () => {
    for (const [line, words] of [
      // Spec "Firewall rule": priority minimum 0; ports are colon-separated ranges; protocol at most 20 characters.
      ['schedule "sg add-rule 7 --type in --action allow --protocol tcp --priority -1" daily 02:00', 'below the minimum'],
      ['schedule "sg add-rule 7 --type in --action allow --protocol tcp --port 80-90" daily 02:00', 'write ranges with a colon'],
      [`schedule "sg add-rule 7 --type in --action allow --protocol ${'x'.repeat(21)}" daily 02:00`, 'too long for a protocol'],
      ['schedule "worker deploy --name app --location 1" daily 02:00', 'needs the repository URL'],
    ] as const) {
      const r = await rig.command(line);
      expect(visibleText(r.final), line).toContain(words);
      expect(r.cloudRequests, line).toEqual([]);
    }
    expect(await rig.store.schedules.list(OPS_CHANNEL.id)).toEqual([]);
  });

  it('a credentials read scheduled before this rule runs as refused: its answer never reaches the channel', async () => {
    const s = await rig.store.schedules.add({
      channelId: OPS_CHANNEL.id, createdBy: ALICE.id, command: 'server credentials 101', opId: 'server.credentials',
      when: { kind: 'once', at: clock.now() + 60_000, tz: 'UTC', text: 'in 1m' }, status: 'active', nextAt: clock.now() + 60_000, now: clock.now(),
    });
    const seen = posted();
    jumpTo(s.nextAt! + 1);
    await tick();
    const said = channelSince(seen);
    expect(said.join('\n')).toContain('is answered only to the person who asks');
    expect(said.join('\n')).not.toMatch(/root password|password/i);
    expect((await scheduled(s.id)).lastResult).toBe('not run: the command no longer reads');
  });
});

describe('downtime', () => {
  it('a run missed by more than the grace is skipped and said; one within the grace runs once, late', async () => {
    const r = await rig.command('schedule "server status 102" every sunday 03:00 --tz UTC');
    const s = await scheduled(idIn(visibleText(r.final)));
    const from = rig.sandbox.requests.length;
    const seen = posted();
    jumpTo(s.nextAt! + GRACE + 60_000); // every replica was down past the grace
    await tick();
    expect(rig.sandbox.requests.length).toBe(from);
    expect(channelSince(seen)).toEqual([expect.stringContaining(`Skipped 1 scheduled run of \`/cloud server status 102\` (\`${s.id}\``)]);
    const next = (await scheduled(s.id)).nextAt!;
    expect(next).toBe(s.nextAt! + 7 * 86_400_000);
    jumpTo(next + GRACE / 2); // down again, back within the grace
    await tick();
    await tick();
    expect(rig.sandbox.requests.slice(from).map((q) => q.rawPath)).toEqual(['/v2/servers/102/status']);
    expect((await rig.store.schedules.runs(s.id)).map((x) => x.status)).toEqual(['skipped', 'done']);
    await rig.command(`schedule cancel ${s.id}`);
  });
});

describe('a destroy-tier schedule', () => {
  it('waits for its Confirm card; confirmed, its run deletes once without asking again', async () => {
    const backup = rig.sandbox.state.backups[101]!.find((b) => !b.isLocked && b.name?.includes('daily'))!;
    const seen = posted();
    const r = await rig.command(`schedule "backup delete 101 ${backup.uuid}" in 1h`);
    expect(visibleText(r.final)).toContain('waits for its Confirm');
    const s = await scheduled(idIn(visibleText(r.final)));
    expect(s.status).toBe('pending');
    const card = await waitFor(() => rig.slack.messages.inChannel(OPS_CHANNEL.id).slice(seen).find((m) => text(m).includes(s.id)), { timeoutMs: 5000 });
    expect(text(card)).toContain(`/cloud backup delete 101 ${backup.uuid}`);
    const from = rig.sandbox.requests.length;
    await tick(); // not confirmed: stays pending, nothing sent
    expect((await scheduled(s.id)).status).toBe('pending');
    await rig.click(card, 'op_confirm', ALICE.id);
    await waitFor(async () => ((await rig.store.operations.get(s.confirmRecord ?? (await scheduled(s.id)).confirmRecord!))?.status === 'succeeded' ? true : undefined), { timeoutMs: 5000 });
    await tick();
    expect((await scheduled(s.id)).status).toBe('active');
    expect(rig.mutations(from)).toEqual([]);
    jumpTo(s.nextAt! + 1);
    await tick();
    expect(rig.mutations(from).map((q) => `${q.method} ${q.rawPath}`)).toEqual([`DELETE /v2/servers/101/backups/${backup.uuid}`]);
  });
});

describe('a pending schedule cancelled before its Confirm', () => {
  it('closes its card: a later click confirms nothing and the card does not say confirmed', async () => {
    const { s, card } = await scheduledWithCard('schedule "backup create 101 --name never" daily 07:00 --keep 4');
    const stale = structuredClone(card); // a client that still shows the buttons
    expect(visibleText((await rig.command(`schedule cancel ${s.id}`)).final)).toContain(`Cancelled schedule \`${s.id}\``);
    const record = (await rig.store.operations.get(s.confirmRecord!))!;
    expect(record).toMatchObject({ status: 'cancelled', errorCode: 'SCHEDULE_CANCELLED', confirmedAt: null });
    await waitFor(() => (text(rig.slack.messages.get(card.channel, card.ts)!).includes('— cancelled') ? true : undefined), { timeoutMs: 5000 });
    await rig.click(stale, 'op_confirm', ALICE.id);
    await tick();
    expect(text(rig.slack.messages.get(card.channel, card.ts)!)).not.toContain('confirmed: it runs');
    expect((await rig.store.operations.get(record.id))!.status).toBe('cancelled');
    expect((await scheduled(s.id)).status).toBe('cancelled');
  });
});

describe('a schedule whose Confirm card was not noted (its process stopped in between)', () => {
  it('its card is found by its key and a Confirm arms it; a schedule that never got a card is closed after CARD_WAIT_MS', async () => {
    const { s, card } = await scheduledWithCard('schedule "backup create 101 --name orphan" daily 06:00 --keep 9');
    // The process stopped after posting the card and before noting it with the schedule.
    const db = new Database(rig.databasePath);
    db.prepare('UPDATE schedules SET confirm_record = NULL WHERE id = ?').run(s.id);
    db.close();
    await rig.click(card, 'op_confirm', ALICE.id);
    await waitFor(async () => ((await rig.store.operations.byDedupeKey(confirmCardKey(s.id)))?.status === 'succeeded' ? true : undefined), { timeoutMs: 5000 });
    await tick();
    expect(await scheduled(s.id)).toMatchObject({ status: 'active', confirmRecord: (await rig.store.operations.byDedupeKey(confirmCardKey(s.id)))!.id });
    await rig.command(`schedule cancel ${s.id}`);

    // Stored, then the process stopped before any card: nothing can confirm it.
    const bare = await rig.store.schedules.add({
      channelId: OPS_CHANNEL.id, createdBy: ALICE.id, command: 'backup create 101', opId: 'backup.create', when: s.when, keep: 3, status: 'pending', nextAt: s.nextAt, now: clock.now(),
    });
    await tick();
    expect((await scheduled(bare.id)).status).toBe('pending'); // its card may still be on its way
    clock.jump(CARD_WAIT_MS);
    await tick();
    expect((await scheduled(bare.id)).status).toBe('cancelled');
  });
});


describe('backups with --keep (retention) against the sandbox', () => {
  it('a full backup_limit: the oldest unlocked backup goes first, as --keep allows, then the backup is taken; nothing more is deleted', async () => {
    expect(rig.sandbox.state.backups[102]).toHaveLength(3); // db-1 is at its plan's limit of 3
    const oldest = oldestFirst(102)[0]!;
    const s = await scheduleConfirmed('schedule "backup create 102 --name keep3" daily 02:00 --keep 3');
    await h.adoptBackups(s, 102); // the backups there were made by this schedule's earlier runs
    const from = rig.sandbox.requests.length;
    const seen = posted();
    jumpTo(s.nextAt! + 1);
    await tick();
    expect(rig.mutations(from).map((q) => `${q.method} ${q.rawPath}`)).toEqual([
      'POST /v2/servers/102/backups', // refused: RESOURCE_LIMIT_EXCEEDED
      `DELETE /v2/servers/102/backups/${oldest.uuid}`,
      'POST /v2/servers/102/backups',
    ]);
    expect(rig.sandbox.state.backups[102]!.map((b) => b.name)).toContain('keep3');
    expect(rig.sandbox.state.backups[102]).toHaveLength(3);
    // The channel reads calmly and truly: the refused attempt's status message says what the run
    // does about it (not "failed"), the deletion and the backup each have their own.
    const [refused, deleted, taken, ...more] = channelSince(seen);
    expect(more).toEqual([]);
    expect(refused).toContain(`:information_source: *Back up server \`102\` as \`keep3\`* — backup limit reached; removing the oldest unlocked backup \`${oldest.name}\` (\`${oldest.uuid}\`) and trying again, as \`--keep 3\` allows`);
    expect(refused).toContain('RESOURCE_LIMIT_EXCEEDED');
    expect(refused).not.toMatch(/failed|:x:/);
    expect(deleted).toContain(`of server \`102\`* — done`);
    expect(taken).toContain('*Back up server `102` as `keep3`* — done');
    const deletion = (await rig.store.audit.list({ limit: 30 })).find((e) => e.opId === 'backup.delete' && e.outcome === 'succeeded');
    expect(deletion!.detail).toBe(`scheduled by ${ALICE.id} (schedule ${s.id}): DELETE /servers/102/backups/${oldest.uuid}`);
    expect((await scheduled(s.id)).lastResult).toContain('succeeded');
    await rig.command(`schedule cancel ${s.id}`);
  });

  it('locked backups are never deleted, and a run deletes no more than it made room for, once its backup finished', async () => {
    const before = oldestFirst(101);
    expect(before[0]!.isLocked).toBe(true);
    const secondOldest = before.find((b) => !b.isLocked)!;
    const s = await scheduleConfirmed('schedule "backup create 101 --name kept" daily 03:00 --keep 5');
    await h.adoptBackups(s, 101); // the backups there were made by this schedule's earlier runs
    const from = rig.sandbox.requests.length;
    jumpTo(s.nextAt! + 1);
    await rig.bot.scheduler.tick();
    // The run waits for its backup to finish before deleting anything.
    const made = await waitFor(() => rig.sandbox.state.backups[101]!.find((b) => b.name === 'kept'), { timeoutMs: 5000 });
    expect(rig.mutations(from).map((q) => q.method)).toEqual(['POST']);
    clock.jump(31_000); // the sandbox finishes a backup in 30 s
    await rig.bot.scheduler.settled();
    expect(rig.mutations(from).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['POST /v2/servers/101/backups', `DELETE /v2/servers/101/backups/${secondOldest.uuid}`]);
    expect(rig.sandbox.state.backups[101]!.some((b) => b.uuid === before[0]!.uuid)).toBe(true); // the locked one stays
    expect(rig.sandbox.state.backups[101]!.some((b) => b.uuid === made.uuid)).toBe(true);
    expect((await scheduled(s.id)).lastResult).toBe('succeeded; deleted 1 old backup');
    await rig.command(`schedule cancel ${s.id}`);
  });

  it('a replica stopped while its run waits for the backup (a deploy): the run taken over does the retention it owed, once', async () => {
    // The new backup puts two beyond the number kept: the locked oldest (it stays) and the victim.
    const keep = rig.sandbox.state.backups[101]!.length - 1;
    const [locked, victim] = oldestFirst(101) as [BackupState, BackupState];
    expect(locked.isLocked).toBe(true);
    const s = await scheduleConfirmed(`schedule "backup create 101 --name resumed" daily 05:00 --keep ${keep}`);
    await h.adoptBackups(s, 101); // the backups there were made by this schedule's earlier runs
    const from = rig.sandbox.requests.length;
    jumpTo(s.nextAt! + 1);
    await rig.bot.scheduler.tick();
    const made = await waitFor(() => rig.sandbox.state.backups[101]!.find((b) => b.name === 'resumed'), { timeoutMs: 5000 });
    // The deploy: the bot stops while the run waits for the backup to finish, and starts again.
    await rig.restartBot();
    expect(rig.mutations(from).map((q) => q.method)).toEqual(['POST']);
    // The stopped run's lease (45 min) runs out; the backup finished long before.
    clock.jump(46 * 60_000);
    await tick();
    expect(rig.mutations(from).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['POST /v2/servers/101/backups', `DELETE /v2/servers/101/backups/${victim.uuid}`]);
    expect(rig.sandbox.state.backups[101]).toHaveLength(keep + 1);
    expect(rig.sandbox.state.backups[101]!.some((b) => b.uuid === made.uuid)).toBe(true);
    const runs = await rig.store.schedules.runs(s.id);
    expect(runs.at(-1)).toMatchObject({ status: 'done', result: 'succeeded (run taken over); deleted 1 old backup' });
    // Taken over again (another replica dying the same way): nothing more is sent.
    h.replicaDied(s.id, { reopen: true });
    await tick();
    expect(rig.mutations(from)).toHaveLength(2);
    await rig.command(`schedule cancel ${s.id}`);
  });

  it('a failed backup deletes nothing', async () => {
    const s = await scheduleConfirmed('schedule "backup create 101 --name failing" every monday 04:00 --keep 1');
    const count = rig.sandbox.state.backups[101]!.length;
    rig.sandbox.addFault({ method: 'POST', path: '/servers/101/backups', status: 500, times: 1 });
    const from = rig.sandbox.requests.length;
    jumpTo(s.nextAt! + 1);
    await tick();
    expect(rig.mutations(from).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['POST /v2/servers/101/backups']);
    expect(rig.sandbox.state.backups[101]).toHaveLength(count);
    expect((await scheduled(s.id)).lastResult).toMatch(/^failed: .*; nothing deleted$/);
    await rig.command(`schedule cancel ${s.id}`);
  });
});

describe('`/cloud schedules --all`', () => {
  it('lists every channel’s schedules this person may see: their own, and those of channels where they may list them', async () => {
    const other = await startBotRig({ access: { channels: [OPS_CHANNEL.id] } });
    try {
      const when = { kind: 'once' as const, at: other.clock.now() + 3_600_000, tz: 'UTC', text: 'in 1h' };
      // Made in a channel the bot no longer takes commands in (before CLOUD_CHANNELS was set).
      const elsewhere = await other.store.schedules.add({
        channelId: 'CELSEWHERE', createdBy: ALICE.id, command: 'server status 101', opId: 'server.status', when, status: 'active', nextAt: when.at, now: other.clock.now(),
      });
      const here = await other.store.schedules.add({
        channelId: OPS_CHANNEL.id, createdBy: ALICE.id, command: 'server status 102', opId: 'server.status', when, status: 'active', nextAt: when.at, now: other.clock.now(),
      });
      const asCarol = visibleText((await other.command('schedules --all', { userId: CAROL.id })).final);
      expect(asCarol).toContain(here.id);
      expect(asCarol).not.toContain(elsewhere.id);
      const asAlice = visibleText((await other.command('schedules --all', { userId: ALICE.id })).final);
      expect(asAlice).toContain(here.id);
      expect(asAlice).toContain(elsewhere.id); // her own
    } finally {
      await other.close();
    }
  });
});
