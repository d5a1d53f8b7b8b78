/**
 * The audit trail and secret handling over one full run: reads, refusals, cloud errors,
 * confirmed changes, a reinstall with a typed password, one with a generated password that a
 * watch follows to its end, and credentials read by an admin. Afterwards every log line, every
 * non-ephemeral Slack call, the audit trail and the database file are searched for secrets.
 * The reinstalls' watches are stepped to their end on the injected clock (rig-watch.ts), so
 * their polls and final posts are always in what is searched.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewSubmissionPayload } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, BOT_TOKEN, CAROL, OPS_CHANNEL, SIGNING_SECRET } from '../rig/workspace.js';
import { CLOUD_TOKEN, createJumpClock, rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { watchSteps } from './rig-watch.js';

const AUDIT = { id: 'CAUDIT0001', name: 'cloud-audit', botIsMember: true };
const TYPED_PASSWORD = 'Typed-Pa55word-For-Reinstall';
const INTERVAL = 10_000;
let rig: BotRig;
const clock = createJumpClock();
const watch = watchSteps(() => rig, clock, INTERVAL);
const { text, confirmByTyping } = rigHelpers(() => rig);
const secrets = new Set<string>([CLOUD_TOKEN, BOT_TOKEN, SIGNING_SECRET, TYPED_PASSWORD]);

beforeAll(async () => {
  rig = await startBotRig({
    auditChannel: AUDIT.id,
    extraChannels: [AUDIT],
    clock,
    sandbox: { clock, reinstallMs: 60_000 },
    watch: { intervalMs: INTERVAL },
    watchLoop: false,
  });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const auditPosts = () => rig.slack.messages.inChannel(AUDIT.id).map(text);
const entries = () => rig.store.audit.list({ limit: 500 });
/** The change's watch, from its first look to its end (the reinstall's credentials ready). */
async function watchToItsEnd(): Promise<void> {
  const w = await watch.begun();
  await watch.tick();
  await watch.stepUntil(async () => (await rig.store.watches.get(w.id))?.status === 'done');
}


describe('audit trail', () => {
  it('a read that succeeds is stored and logged, not posted', async () => {
    await rig.command('account usage', { userId: BOB.id });
    const [e] = await entries();
    expect(e).toMatchObject({ userId: BOB.id, channelId: OPS_CHANNEL.id, opId: 'account.usage', tier: 'read', outcome: 'succeeded', errorCode: null });
    expect(e!.durationMs).toBeGreaterThanOrEqual(0);
    expect(rig.logLines.some((l) => l.includes('"msg":"audit"') && l.includes('account.usage'))).toBe(true);
    await rig.bot.auditor.flush();
    expect(auditPosts()).toEqual([]);
  });

  it('a refusal is stored and posted', async () => {
    await rig.command('server credentials 101', { userId: CAROL.id });
    const [e] = await entries();
    expect(e).toMatchObject({ userId: CAROL.id, opId: 'server.credentials', tier: 'secret', outcome: 'refused', errorCode: 'ACCESS_DENIED' });
    await rig.bot.auditor.flush();
    expect(auditPosts().at(-1)).toMatch(/server credentials/);
  });

  it('a cloud error is recorded with its code, for a read and for a change', async () => {
    await rig.command('sg show 999', { userId: BOB.id });
    expect((await entries())[0]).toMatchObject({ opId: 'sg.show', outcome: 'failed', errorCode: 'NOT_FOUND' });
    const from = rig.slack.calls.length;
    await rig.sendCommand('backup create 102 --name over-the-limit', { userId: BOB.id });
    const msg = await rig.postedSince(from);
    await waitFor(() => text(rig.slack.messages.get(msg.channel, msg.ts)!).includes('— failed'), { timeoutMs: 5000 });
    // The message is edited before the failure's audit entry is written: wait for the entry,
    // not for the message (reading at once raced the write).
    const e = await waitFor(async () => (await entries()).find((x) => x.opId === 'backup.create' && x.outcome === 'failed'), { timeoutMs: 5000 });
    expect(e).toMatchObject({ opId: 'backup.create', tier: 'change', outcome: 'failed', errorCode: 'RESOURCE_LIMIT_EXCEEDED', confirmedBy: BOB.id });
    expect(e!.operationId).toMatch(/^op_/);
    expect(e!.args).toEqual({ server: '102', name: 'over-the-limit', mode: 'snapshot', compression: 'zstd' });
    await rig.bot.auditor.flush();
    expect(auditPosts().at(-1)).toMatch(/backup create/);
  });

  it('a confirmed destroy: requested, then succeeded with who confirmed; the typed password masked', async () => {
    const from = rig.slack.calls.length;
    await rig.sendCommand('server reinstall 102');
    const form = await waitFor(() => {
      const v = rig.slack.views.latest();
      return v && rig.slack.views.isOpen(v.id) && JSON.stringify(v.view).includes('"block_id":"ssh-keys"') ? v : undefined;
    }, { timeoutMs: 5000 });
    await rig.send.interaction(viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { template: 'debian-12', password: TYPED_PASSWORD }, userId: ALICE.id }));
    const msg = await rig.postedSince(from);
    expect((await entries())[0]).toMatchObject({ opId: 'server.reinstall', tier: 'destroy', outcome: 'requested', userId: ALICE.id });
    await confirmByTyping(msg, 'db-1.example.net');
    await waitFor(async () => (await entries())[0]?.outcome === 'succeeded', { timeoutMs: 5000 });
    const [done] = await entries();
    expect(done).toMatchObject({ opId: 'server.reinstall', outcome: 'succeeded', confirmedBy: ALICE.id, detail: 'POST /servers/102/reinstall' });
    expect(done!.args).toEqual({ server: '102', template: 'debian-12' });
    // The password reaches Alice once, with the change's outcome; the watch does not repeat it (issue 14).
    await waitFor(() => rig.slack.messages.ephemeral(ALICE.id).filter((e) => JSON.stringify(e.blocks).includes(TYPED_PASSWORD)).length >= 1, { timeoutMs: 10_000 });
    await watchToItsEnd();
    expect(rig.slack.messages.ephemeral(ALICE.id).filter((e) => JSON.stringify(e.blocks).includes(TYPED_PASSWORD))).toHaveLength(1);
  });

  it('/cloud audit lists entries for admins, filters by user, and refuses operators', async () => {
    const all = visibleText((await rig.command('audit --limit 50', { userId: ALICE.id })).final);
    expect(all).toContain('/cloud server reinstall');
    expect(all).toContain('/cloud account usage');
    const carol = visibleText((await rig.command(`audit --user ${CAROL.id}`, { userId: ALICE.id })).final);
    expect(carol).toContain('/cloud server credentials');
    expect(carol).not.toContain('/cloud account usage');
    const bob = await rig.command('audit', { userId: BOB.id });
    expect(visibleText(bob.final)).toContain('it needs the *admin* role');
  });
});

describe('secrets over the whole run', () => {
  it('a generated password and credentials read by an admin reach only the requester', async () => {
    const from = rig.slack.calls.length;
    await rig.sendCommand('server reinstall 104 --template ubuntu-24.04');
    const msg = await rig.postedSince(from);
    await confirmByTyping(msg, 'staging-1.example.net');
    // Once the reinstall request has arrived, the server's password is the new one.
    await waitFor(() => rig.sandbox.requests.some((r) => r.method === 'POST' && r.path === '/servers/104/reinstall'), { timeoutMs: 5000 });
    const server = rig.sandbox.state.servers.find((s) => s.id === 104)!;
    const generated = (server.pendingPassword ?? server.rootPassword)!;
    secrets.add(generated);
    await waitFor(() => rig.slack.messages.ephemeral(ALICE.id).filter((e) => JSON.stringify(e.blocks).includes(generated)).length >= 1, { timeoutMs: 10_000 });
    await watchToItsEnd(); // its polls read the new password and its final post is made: all searched below
    const creds = await rig.command('server credentials 101', { userId: ALICE.id });
    const root = rig.sandbox.state.servers.find((s) => s.id === 101)!.rootPassword!;
    secrets.add(root);
    expect(visibleText(creds.final)).toContain(root);
    expect(creds.final.response_type).toBe('ephemeral');
  });

  it('no secret in any log line, non-ephemeral Slack call, audit entry, or the database file', async () => {
    await rig.bot.auditor.flush();
    const logs = rig.logLines.join('\n');
    // What the bot sent (the fake also records which token each call used: that is not content).
    const channelCalls = JSON.stringify(
      rig.slack.calls.filter((c) => c.method !== 'chat.postEphemeral' && !c.method.startsWith('views.')).map((c) => ({ method: c.method, params: c.params })),
    );
    const channelMessages = JSON.stringify(rig.slack.messages.all());
    const audit = JSON.stringify(await entries());
    const db = ['', '-wal'].map((suffix) => {
      try {
        return readFileSync(rig.databasePath + suffix).toString('latin1');
      } catch {
        return '';
      }
    });
    expect(rig.logLines.length).toBeGreaterThan(50);
    for (const secret of secrets) {
      expect(logs.includes(secret), `log contains ${secret.slice(0, 4)}…`).toBe(false);
      expect(channelCalls.includes(secret), `channel call contains ${secret.slice(0, 4)}…`).toBe(false);
      expect(channelMessages.includes(secret), `channel message contains ${secret.slice(0, 4)}…`).toBe(false);
      expect(audit.includes(secret), `audit contains ${secret.slice(0, 4)}…`).toBe(false);
      for (const file of db) expect(file.includes(secret), `database contains ${secret.slice(0, 4)}…`).toBe(false);
    }
  });
});
