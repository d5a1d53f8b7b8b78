/**
 * Helpers of the schedule end-to-end files: a bot rig on a jump clock shared with the sandbox,
 * the scheduler ticked by hand, and a schedule confirmed through its card.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import { createJumpClock, rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';

export type ScheduleRig = Awaited<ReturnType<typeof startScheduleRig>>;

/**
 * A file's schedule rig: started before its tests, closed after them, with no Slack rule broken.
 * The object is filled in when the rig is up, so tests read it inside their bodies.
 */
export function useScheduleRig(graceMs?: number): ScheduleRig {
  const h = {} as ScheduleRig;
  beforeAll(async () => {
    Object.assign(h, await startScheduleRig(graceMs));
  });
  afterAll(async () => {
    await h.rig.close();
    expect(h.rig.slack.violations).toEqual([]);
  });
  return h;
}

export async function startScheduleRig(graceMs = 60 * 60_000) {
  const clock = createJumpClock();
  const rig: BotRig = await startBotRig({ clock, sandbox: { clock }, schedule: { graceMs, backupPollMs: 20 } });
  const { text } = rigHelpers(() => rig);
  const posted = () => rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
  const channelSince = (n: number) => rig.slack.messages.inChannel(OPS_CHANNEL.id).slice(n).map((m) => text(m));
  const scheduled = async (id: string) => (await rig.store.schedules.get(id))!;
  const idIn = (answer: string) => /sch_[0-9a-f]{10}/.exec(answer)![0];
  const jumpTo = (at: number) => clock.jump(Math.max(0, at - clock.now()));
  /** One scheduler look, and the runs it started, to the end. */
  async function tick(): Promise<void> {
    await rig.bot.scheduler.tick();
    await rig.bot.scheduler.settled();
  }
  /** Schedules a command that needs a Confirm; returns the schedule and its card in the channel. */
  async function scheduledWithCard(line: string) {
    const seen = posted();
    const r = await rig.command(line);
    expect(visibleText(r.final)).toContain('waits for its Confirm');
    const s = await scheduled(idIn(visibleText(r.final)));
    const card = await waitFor(() => rig.slack.messages.inChannel(OPS_CHANNEL.id).slice(seen).find((m) => text(m).includes(s.id)), { timeoutMs: 5000 });
    return { s, card };
  }
  /** Clicks a schedule's Confirm card and waits for its record to be done. */
  async function confirm(s: { id: string }, card: Parameters<BotRig['click']>[0]) {
    await rig.click(card, 'op_confirm', ALICE.id);
    const confirmRecord = (await scheduled(s.id)).confirmRecord!;
    await waitFor(async () => ((await rig.store.operations.get(confirmRecord))?.status === 'succeeded' ? true : undefined), { timeoutMs: 5000 });
  }
  /** Schedules it, clicks its Confirm card, and lets the scheduler arm it. */
  async function scheduleConfirmed(line: string) {
    const { s, card } = await scheduledWithCard(line);
    await confirm(s, card);
    await tick();
    const armed = await scheduled(s.id);
    expect(armed.status).toBe('active');
    return armed;
  }
  /** A `--keep` run: its backup made, the sandbox lets it finish (30 s) and the run ends. */
  async function runWithBackup(nextAt: number, name: string) {
    jumpTo(nextAt + 1);
    await rig.bot.scheduler.tick();
    await waitFor(() => rig.sandbox.state.backups[101]!.find((b) => b.name === name && b.createdAt >= nextAt), { timeoutMs: 5000 });
    clock.jump(31_000);
    await rig.bot.scheduler.settled();
  }
  /**
   * The replica running this schedule's run died: its lease is over and nobody renews it.
   * `reopen`: it died after the cloud took the request and before it noted the run done.
   */
  function replicaDied(scheduleId: string, { reopen = false } = {}): void {
    const db = new Database(rig.databasePath);
    db.prepare(`UPDATE schedule_runs SET ${reopen ? "status = 'running', finished_at = NULL, " : ''}owner = 'dead-replica', lease_until = 0 WHERE schedule_id = ?`).run(scheduleId);
    db.close();
  }
  /**
   * The schedule's time comes and its first attempt's status message never gets its answer
   * from Slack: the run stops there, its record pending. Returns that record.
   */
  async function firstAttemptStuck(s: { id: string; nextAt: number | null }) {
    const calls = rig.slack.calls.length;
    jumpTo(s.nextAt! + 1);
    rig.slack.hangNext('chat.postMessage');
    await rig.bot.scheduler.tick();
    await waitFor(() => rig.slack.calls.slice(calls).find((c) => c.method === 'chat.postMessage' && c.status === 0), { timeoutMs: 5000 });
    const stuck = (await rig.store.operations.listRecent({ limit: 5 })).find((o) => o.dedupeKey?.endsWith(`sched:${s.id}:${s.nextAt}`))!;
    expect(stuck.status).toBe('pending');
    return stuck;
  }
  /**
   * Backups of `server` the schedule made, as far as the bot knows: a succeeded backup create
   * record of one of its runs for each (retention deletes only its own schedule's backups).
   */
  async function adoptBackups(s: { id: string }, server: number, uuids = rig.sandbox.state.backups[server]!.map((b) => b.uuid)): Promise<void> {
    for (const uuid of uuids) {
      const { record } = await rig.store.operations.create({
        opId: 'backup.create',
        args: { server: String(server) },
        facts: { scheduled: { id: s.id, by: ALICE.id } },
        requestedBy: ALICE.id,
        channelId: OPS_CHANNEL.id,
        dedupeKey: `adopted:${s.id}:${uuid}`,
        expiresAt: clock.now() + 60_000,
      });
      await rig.store.operations.transition(record.id, { from: ['pending'], to: 'succeeded', now: clock.now(), patch: { result: { text: 'adopted', outputs: { backup_uuid: uuid, server: String(server) } } } });
    }
  }
  const oldestFirst = (server: number) => [...rig.sandbox.state.backups[server]!].sort((a, b) => a.createdAt - b.createdAt);
  const mutationsSince = (from: number) => rig.mutations(from).map((q) => `${q.method} ${q.rawPath}`);
  return { rig, clock, text, posted, channelSince, scheduled, idIn, jumpTo, tick, scheduledWithCard, confirm, scheduleConfirmed, runWithBackup, replicaDied, firstAttemptStuck, adoptBackups, oldestFirst, mutationsSince };
}
