/**
 * Two-person approval of a schedule (issue 25): its Confirm card asks for a second admin's
 * approval exactly when the command it arms (and, with `--keep`, deleting backups) needs one
 * under the channel's policy — not when the card's own tier would. Approved so, it runs; a
 * card that skipped the approval would leave a schedule every run refuses.
 * (No change-tier command needs a Confirm by itself, so "`approval: [destroy]` and a change
 * needing only a Confirm" is covered in test/confirm/change-flow-approval.test.ts instead.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPolicyFile } from '../../src/access/policy-file.js';
import { appHomeOpenedEnvelope } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, type FakeChannel, type FakeUser } from '../rig/workspace.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

const PROD: FakeChannel = { id: 'CPROD00001', name: 'prod-ops', botIsMember: true };
const ERIN: FakeUser = { id: 'UERIN00005', name: 'erin', realName: 'Erin Admin' }; // a second admin
const text = (m: { blocks?: unknown[]; text: string }) => visibleText({ text: m.text, blocks: m.blocks });

/** A bot whose one channel has this ceiling and approval list, on a policy file. */
function withPolicy(ceiling: string, approval: string) {
  let dir = '';
  let approvalNow = approval;
  const h = {
    rig: undefined as unknown as BotRig,
    /** The policy file rewritten with this approval list, and reloaded (SIGHUP). */
    async reload(next: string) {
      approvalNow = next;
      expect((await h.rig.bot.reloadPolicy('signal')).kind).toBe('changed');
    },
  };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'schedule-approval-'));
    const path = join(dir, 'policy.yaml');
    const load = (urls: Record<string, string>) => {
      writeFileSync(
        path,
        `version: 1\naccounts:\n  prod: { base_url: ${urls.prod}, token_env: CLOUD_PROD_TOKEN }\ndefault_channel: deny\nchannels:\n  ${PROD.id}: { account: prod, ceiling: ${ceiling}, approval: ${approvalNow} }\n`,
      );
      return readPolicyFile(path, { hasEnv: (n) => n === 'CLOUD_PROD_TOKEN' });
    };
    h.rig = await startBotRig({
      accounts: { prod: { token: 'prod-token-sched-approval-aaaa' } },
      policy: load,
      reloadPolicy: load,
      policyPath: path,
      extraChannels: [PROD],
      extraUsers: [ERIN],
      access: { admins: [ALICE.id, ERIN.id] },
    });
  });
  afterAll(async () => {
    await h.rig.close();
    rmSync(dir, { recursive: true, force: true });
    expect(h.rig.slack.violations).toEqual([]);
  });
  return h;
}

/** Schedules `line` as Alice in PROD; the schedule and its card there. */
async function scheduleWithCard(rig: BotRig, line: string, waitsFor: 'approval' | 'confirm' = 'approval') {
  const seen = rig.slack.messages.inChannel(PROD.id).length;
  const r = await rig.command(line, { channelId: PROD.id });
  const answer = visibleText(r.final);
  // The requester is told what the card waits for: their own Confirm, or another admin.
  expect(answer).toContain(waitsFor === 'approval' ? 'waits for a second admin’s approval (the card in the channel)' : 'waits for its Confirm (the card in the channel)');
  const s = (await rig.store.schedules.get(/sch_[0-9a-f]{10}/.exec(answer)![0]))!;
  const card = await waitFor(() => rig.slack.messages.inChannel(PROD.id).slice(seen).find((m) => text(m).includes(s.id)), { timeoutMs: 5000 });
  return { s, card };
}

async function homeOf(rig: BotRig, userId: string): Promise<string> {
  const before = rig.slack.callsTo('views.publish').length;
  await rig.send.event(appHomeOpenedEnvelope({ userId }));
  await waitFor(() => rig.slack.callsTo('views.publish').slice(before).find((c) => c.response.ok === true), { timeoutMs: 10_000 });
  return visibleText({ blocks: rig.slack.views.home(userId)!.blocks as unknown[] });
}

describe('a channel whose policy wants changes approved (`approval: [change]`)', () => {
  const h = withPolicy('[read, change]', '[change]');
  const ephemeralTo = (user: string) => h.rig.slack.messages.ephemeral(user).map((e) => visibleText({ text: e.text, blocks: e.blocks }));

  it('a scheduled rename asks a second admin; approved, it runs once at its time', async () => {
    const { rig } = h;
    const cloud = rig.accounts.prod!.sandbox;
    const { s, card } = await scheduleWithCard(rig, 'schedule "server rename 101 renamed-later" in 1h');
    expect(text(card)).toContain('awaiting approval by a second admin');
    expect(JSON.stringify(card.blocks)).toContain('"text":"Approve"');

    // The App Home says so too: waiting for approval, and in the other admin's approvals.
    expect(await homeOf(rig, ALICE.id)).toMatch(new RegExp(`schedule[\\s\\S]*${s.id}[\\s\\S]*waits for approval`));
    expect(await homeOf(rig, ERIN.id)).toContain(s.id);

    // The requester cannot approve their own schedule.
    await rig.click(card, 'op_confirm', ALICE.id);
    await waitFor(() => ephemeralTo(ALICE.id).some((t) => t.includes('another admin must approve it')), { timeoutMs: 5000 });
    expect((await rig.store.operations.get(s.confirmRecord!))).toMatchObject({ status: 'pending', approvedBy: null });

    await rig.click(card, 'op_confirm', ERIN.id);
    await waitFor(async () => ((await rig.store.operations.get(s.confirmRecord!))?.status === 'succeeded' ? true : undefined), { timeoutMs: 5000 });
    expect(await rig.store.operations.get(s.confirmRecord!)).toMatchObject({ requestedBy: ALICE.id, approvedBy: ERIN.id });
    await rig.bot.scheduler.tick();
    const armed = (await rig.store.schedules.get(s.id))!;
    expect(armed.status).toBe('active');

    const from = cloud.requests.length;
    const seen = rig.slack.messages.inChannel(PROD.id).length;
    rig.clock.jump!(armed.nextAt! - rig.clock.now() + 1);
    await rig.bot.scheduler.tick();
    await rig.bot.scheduler.settled();
    expect(cloud.requests.slice(from).filter((q) => q.method !== 'GET').map((q) => `${q.method} ${q.rawPath}`)).toEqual(['PATCH /v2/servers/101/rename']);
    const said = rig.slack.messages.inChannel(PROD.id).slice(seen).map(text).join('\n');
    expect(said).toContain(`Scheduled by <@${ALICE.id}> (\`${s.id}\``);
    expect(said).not.toContain('approval');
    expect(await rig.store.schedules.get(s.id)).toMatchObject({ status: 'done', lastResult: 'succeeded' });
  });
});

describe('a channel whose policy wants only destroys approved (`approval: [destroy]`)', () => {
  const h = withPolicy('[read, change, destroy]', '[destroy]');

  it('`backup create --keep` deletes backups: its card asks a second admin', async () => {
    const { card } = await scheduleWithCard(h.rig, 'schedule "backup create 101 --name kept" daily 03:00 --keep 2');
    expect(text(card)).toContain('awaiting approval by a second admin');
  });

  it('`ssh-key delete` (destroy) asks a second admin; the requester alone cannot arm it', async () => {
    const { s, card } = await scheduleWithCard(h.rig, 'schedule "ssh-key delete 12" in 2h');
    expect(text(card)).toContain('awaiting approval by a second admin');
    await h.rig.click(card, 'op_confirm', ALICE.id);
    await waitFor(() => h.rig.slack.messages.ephemeral(ALICE.id).some((e) => visibleText({ text: e.text, blocks: e.blocks }).includes('another admin must approve it')), { timeoutMs: 5000 });
    expect((await h.rig.store.operations.get(s.confirmRecord!))?.status).toBe('pending');
  });
});

describe('a channel whose policy starts to want destroys approved after a `--keep` schedule was armed', () => {
  const h = withPolicy('[read, change, destroy]', '[]');

  it('its run deletes nothing and makes no backup: the deletions were never approved', async () => {
    const { rig } = h;
    const { s, card } = await scheduleWithCard(rig, 'schedule "backup create 101 --name kept" daily 03:00 --keep 2', 'confirm');
    expect(text(card)).not.toContain('approval');
    await rig.click(card, 'op_confirm', ALICE.id);
    await waitFor(async () => ((await rig.store.operations.get(s.confirmRecord!))?.status === 'succeeded' ? true : undefined), { timeoutMs: 5000 });
    await rig.bot.scheduler.tick();
    const armed = (await rig.store.schedules.get(s.id))!;
    expect(armed.status).toBe('active');

    await h.reload('[destroy]');
    const cloud = rig.accounts.prod!.sandbox;
    const from = cloud.requests.length;
    const seen = rig.slack.messages.inChannel(PROD.id).length;
    rig.clock.jump!(armed.nextAt! - rig.clock.now() + 1);
    await rig.bot.scheduler.tick();
    await rig.bot.scheduler.settled();
    expect(cloud.requests.slice(from).filter((q) => q.method !== 'GET')).toEqual([]);
    expect(rig.slack.messages.inChannel(PROD.id).slice(seen).map(text).join('\n')).toContain('want an admin’s approval for this');
    expect((await rig.store.schedules.get(s.id))?.lastResult).toBe('refused: needs approval');
    // In the audit trail, as the undo window's refusal of a change that now wants an approval is.
    const refused = (await rig.store.audit.list({ limit: 20 })).filter((e) => e.outcome === 'refused');
    expect(refused).toMatchObject([{ opId: 'backup.create', userId: ALICE.id, channelId: PROD.id, errorCode: 'APPROVAL_NOW_REQUIRED', confirmedBy: ALICE.id }]);
    expect(refused[0]!.detail).toContain(`which schedule ${s.id} never had; nothing was sent`);
  });
});
