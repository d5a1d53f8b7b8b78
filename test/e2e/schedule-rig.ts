/**
 * Helpers of the schedule end-to-end files: a bot rig on a jump clock shared with the sandbox,
 * the scheduler ticked by hand, and a schedule confirmed through its card.
 */
import { expect } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import { createJumpClock, rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';

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
  const oldestFirst = (server: number) => [...rig.sandbox.state.backups[server]!].sort((a, b) => a.createdAt - b.createdAt);
  const mutationsSince = (from: number) => rig.mutations(from).map((q) => `${q.method} ${q.rawPath}`);
  return { rig, clock, text, posted, channelSince, scheduled, idIn, jumpTo, tick, scheduledWithCard, confirm, scheduleConfirmed, runWithBackup, oldestFirst, mutationsSince };
}
