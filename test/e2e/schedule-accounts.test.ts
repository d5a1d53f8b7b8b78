/**
 * A schedule acts on the account its command names (`--account` inside the quotes), and on
 * this channel only: its `--keep` deletions go to the account its backups were made on, a
 * person other than its creator may cancel it exactly when they may run its command here on
 * that account, and a read that lists other channels' records is never scheduled, since a
 * scheduled read's answer is posted for everyone in this channel. Two accounts, on the rig's
 * jump clock shared with both sandboxes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, OPS_CHANNEL, type FakeChannel } from '../rig/workspace.js';
import { NO_ROLES, twoAccountPolicy } from './two-accounts.js';
import { createJumpClock, startBotRig, visibleText, type BotRig, type JumpClock } from './bot-rig.js';

const PROD: FakeChannel = { id: 'C0PRODOPS1', name: 'prod-ops', botIsMember: true };

let rig: BotRig;
let clock: JumpClock;
beforeAll(async () => {
  clock = createJumpClock();
  rig = await startBotRig({
    clock,
    sandbox: { clock },
    accounts: { prod: { token: 'prod-token-sched-acct-aaaa', sandbox: { clock } }, staging: { token: 'staging-token-sched-acct-bb', sandbox: { clock } } },
    // #cloud-ops drives staging and may name prod; staging itself allows only reads from anywhere.
    policy: (urls) => {
      const p = twoAccountPolicy(urls, {
        [OPS_CHANNEL.id]: { account: 'staging', accounts: ['prod'], ...NO_ROLES },
        [PROD.id]: { account: 'prod', ...NO_ROLES },
      });
      return { ...p, accounts: { ...p.accounts, staging: { ...p.accounts!.staging!, ceiling: ['read'] } } };
    },
    extraChannels: [PROD],
    access: { admins: [ALICE.id], operators: [BOB.id] },
    schedule: { graceMs: 60 * 60_000, backupPollMs: 20 },
  });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const text = (m: { blocks?: unknown[]; text: string }) => visibleText({ text: m.text, blocks: m.blocks });
const idIn = (answer: string) => /sch_[0-9a-f]{10}/.exec(answer)![0];
const scheduled = async (id: string) => (await rig.store.schedules.get(id))!;
async function tick(): Promise<void> {
  await rig.bot.scheduler.tick();
  await rig.bot.scheduler.settled();
}

describe('--keep on a schedule of another account', () => {
  it('deletes the old backup on the account the backups were made on, never on the channel’s own', async () => {
    const prod = rig.accounts.prod!.sandbox;
    const staging = rig.accounts.staging!.sandbox;
    const backups = () => [...prod.state.backups[101]!].sort((a, b) => a.createdAt - b.createdAt);
    const unlocked = backups().filter((b) => !b.isLocked);
    expect(unlocked.length).toBeGreaterThan(0);

    // Scheduled with --keep: a Confirm card first, which Alice confirms.
    const seen = rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
    const r = await rig.command('schedule "backup create 101 --name nightly --account prod" daily 01:00 --keep 1');
    expect(visibleText(r.final)).toContain('waits for its Confirm');
    const s = await scheduled(idIn(visibleText(r.final)));
    const card = await waitFor(() => rig.slack.messages.inChannel(OPS_CHANNEL.id).slice(seen).find((m) => text(m).includes(s.id)), { timeoutMs: 5000 });
    await rig.click(card, 'op_confirm', ALICE.id);
    await waitFor(async () => ((await rig.store.operations.get((await scheduled(s.id)).confirmRecord!))?.status === 'succeeded' ? true : undefined), { timeoutMs: 5000 });
    await tick();
    const armed = await scheduled(s.id);
    expect(armed.status).toBe('active');

    // The backups already there were made by this schedule's earlier runs (on prod).
    for (const b of backups()) {
      const { record } = await rig.store.operations.create({
        opId: 'backup.create',
        args: { server: '101' },
        facts: { scheduled: { id: s.id, by: ALICE.id } },
        requestedBy: ALICE.id,
        channelId: OPS_CHANNEL.id,
        account: 'prod',
        dedupeKey: `adopted:${s.id}:${b.uuid}`,
        expiresAt: clock.now() + 60_000,
      });
      await rig.store.operations.transition(record.id, { from: ['pending'], to: 'succeeded', now: clock.now(), patch: { result: { text: 'adopted', outputs: { backup_uuid: b.uuid, server: '101' } } } });
    }

    const fromProd = prod.requests.length;
    const fromStaging = staging.requests.length;
    clock.jump(armed.nextAt! + 1 - clock.now());
    await rig.bot.scheduler.tick();
    await waitFor(() => prod.state.backups[101]!.find((b) => b.name === 'nightly' && b.createdAt >= armed.nextAt!), { timeoutMs: 5000 });
    clock.jump(31_000); // the sandbox finishes the backup
    await rig.bot.scheduler.settled();

    const mutations = (requests: typeof prod.requests) => requests.filter((q) => q.method !== 'GET').map((q) => `${q.method} ${q.rawPath}`);
    expect(mutations(staging.requests.slice(fromStaging))).toEqual([]);
    expect(staging.requests.slice(fromStaging)).toEqual([]);
    const prodMutations = mutations(prod.requests.slice(fromProd));
    expect(prodMutations[0]).toBe('POST /v2/servers/101/backups');
    expect(prodMutations.slice(1)).toEqual([`DELETE /v2/servers/101/backups/${unlocked[0]!.uuid}`]);
    expect((await scheduled(s.id)).lastResult).toBe('succeeded; deleted 1 old backup');
    await rig.command(`schedule cancel ${s.id}`);
  });
});

describe('cancelling someone else’s schedule', () => {
  it('is decided on the account its command acts on, not the channel’s own', async () => {
    // Alice's change on prod, which #cloud-ops may name; staging allows only reads.
    const r = await rig.command('schedule "sg deploy 7 --account prod" daily 03:00');
    const id = idIn(visibleText(r.final));
    expect((await scheduled(id)).status).toBe('active');
    // Bob is an operator: he may run `sg deploy 7 --account prod` here, so he may stop it.
    const mayRun = await rig.command('sg deploy 7 --account prod --dry-run', { userId: BOB.id });
    expect(visibleText(mayRun.final)).toContain('POST /security-groups/7/deploy');
    const cancelled = visibleText((await rig.command(`schedule cancel ${id}`, { userId: BOB.id })).final);
    expect(cancelled).not.toContain('staging');
    expect((await scheduled(id)).status).toBe('cancelled');
  });
});

describe('a read that lists other channels’ records', () => {
  it('is not scheduled: its answer would be posted in this channel', async () => {
    // A watch of #prod-ops, which Alice may read; #cloud-ops must not be shown it.
    const now = clock.now();
    const parent = await rig.bot.slackApi.postMessage({ channel: PROD.id, text: 'Watching prod-only-watch', blocks: [] });
    await rig.store.watches.create({ kind: 'server', resource: 'prod-only-watch', channelId: PROD.id, account: 'prod', threadTs: parent.ts, requestedBy: ALICE.id, intervalMs: 60_000, startedAt: now, deadlineAt: now + 86_400_000, nextPollAt: now + 86_400_000 });
    expect(visibleText((await rig.command('watch list --all')).final)).toContain('prod-only-watch'); // to Alice alone: fine

    const before = (await rig.store.schedules.list(OPS_CHANNEL.id)).length;
    const seen = rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
    const r = await rig.command('schedule "watch list --all" in 1h');
    const said = visibleText(r.final);
    expect(said).not.toMatch(/Scheduled `sch_/);
    expect(said).toContain('--all');
    expect(await rig.store.schedules.list(OPS_CHANNEL.id)).toHaveLength(before);

    // Whatever was stored, its run posts nothing of #prod-ops in #cloud-ops.
    const stored = (await rig.store.schedules.list(OPS_CHANNEL.id)).find((x) => x.command === 'watch list --all');
    clock.jump(stored ? stored.nextAt! + 1 - clock.now() : 3_600_000 + 1);
    await tick();
    const posted = rig.slack.messages.inChannel(OPS_CHANNEL.id).slice(seen).map((m) => text(m)).join('\n');
    expect(posted).not.toContain('prod-only-watch');
  });
});
