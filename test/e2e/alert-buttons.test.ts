/**
 * Alert buttons and subscribing, by role (issue 13): a button goes the way a typed command
 * goes — the clicker's role checked against the operation's tier, the answer private, the
 * audit trail written — and a subscription is only stored for a resource the cloud knows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/domain/audit-entry.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, CAROL, OPS_CHANNEL } from '../rig/workspace.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { after, alertButtons, clickAlert, monitorPolls, postedIn, powerFromPanel } from './rig-alerts.js';

const INTERVAL = 60_000;
let rig: BotRig;
beforeAll(async () => {
  rig = await startBotRig({ monitor: { intervalMs: INTERVAL, holdPolls: 2, monitorLoop: false, monitorRecheckMs: 1000, postSpacingMs: 0 } });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
  expect(rig.responses.violations).toEqual([]);
});

const audit = async (): Promise<AuditEntry[]> => rig.store.audit.list({ limit: 200 });
const auditOf = (match: Partial<AuditEntry>) =>
  waitFor(async () => (await audit()).find((e) => Object.entries(match).every(([k, v]) => e[k as keyof AuditEntry] === v)), { timeoutMs: 5000 });
const subsHere = () => rig.store.subscriptions.listForChannel(OPS_CHANNEL.id);
const channelText = () => JSON.stringify(rig.slack.messages.all());
/** Access control's refusal of a viewer (src/views/access-views.ts). */
const refusal = (needed: 'admin' | 'operator') => new RegExp(`needs the \\*${needed}\\* role\\. Your role here is \\*viewer\\*.*Nothing was done`);

describe('subscribing', () => {
  it('a server that does not exist: the cloud’s NOT_FOUND in words, nothing stored', async () => {
    const r = await rig.command('subscribe server 999', { userId: BOB.id });
    expect(r.cloudRequests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /servers/999/status']);
    expect(visibleText(r.final)).toMatch(/`\/cloud subscribe server` failed: Server `999` was not found in this account\.[\s\S]*code `NOT_FOUND`/);
    // The same words as any command that meets the cloud's NOT_FOUND.
    const read = await rig.command('server status 999', { userId: BOB.id });
    expect(visibleText(r.final).replaceAll('subscribe server', 'server status')).toBe(visibleText(read.final));
    expect(await subsHere()).toEqual([]);
  });

  it('a viewer may not subscribe: refused before the cloud is asked, nothing stored, audited', async () => {
    const r = await rig.command('subscribe server 101', { userId: CAROL.id });
    expect(r.cloudRequests).toEqual([]);
    expect(visibleText(r.final)).toMatch(refusal('operator'));
    expect(await subsHere()).toEqual([]);
    expect(await auditOf({ userId: CAROL.id, opId: 'subscribe.server', outcome: 'refused' })).toBeDefined();
  });

  it('an operator may: the subscription is stored and audited', async () => {
    const r = await rig.command('subscribe server 101', { userId: BOB.id });
    expect(r.cloudRequests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /servers/101/status']);
    const subs = await subsHere();
    expect(subs).toMatchObject([{ kind: 'server', resource: '101', createdBy: BOB.id, mutedUntil: null }]);
    expect(visibleText(r.final)).toContain(subs[0]!.id);
    expect(await auditOf({ userId: BOB.id, opId: 'subscribe.server', outcome: 'succeeded' })).toBeDefined();
  });
});

describe('an alert’s buttons, by role', () => {
  let alert: Parameters<typeof clickAlert>[1];
  let buttons: Record<string, string>;
  const password = () => rig.sandbox.state.servers.find((s) => s.id === 101)!.rootPassword!;
  const credentialReads = (from: number) => rig.sandbox.requests.slice(from).filter((q) => q.path === '/servers/101/credentials');

  beforeAll(async () => {
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL);
    await after(rig, 1000);
    const alerts = postedIn(rig, OPS_CHANNEL.id, /Server `101` is powered off/);
    expect(alerts).toHaveLength(1);
    alert = alerts[0]!;
    buttons = alertButtons(alert);
    expect(monitorPolls(rig, '/servers/101/status')).toHaveLength(3);
  });

  it('a viewer clicking Credentials is refused privately; the cloud is not asked; the refusal is audited', async () => {
    const posted = rig.slack.messages.all().length;
    const { posts, shown, from } = await clickAlert(rig, alert, buttons.Credentials!, CAROL.id);
    expect(shown).toMatch(refusal('admin'));
    expect(posts.every((p) => p.body.response_type === 'ephemeral' && p.body.replace_original === false)).toBe(true);
    expect(credentialReads(from)).toEqual([]);
    expect(await auditOf({ userId: CAROL.id, opId: 'server.credentials', outcome: 'refused' })).toMatchObject({ channelId: OPS_CHANNEL.id });
    expect(rig.slack.messages.all()).toHaveLength(posted);
  });

  it('an admin clicking Credentials gets them privately, never in the channel', async () => {
    const { posts, shown, from } = await clickAlert(rig, alert, buttons.Credentials!, ALICE.id);
    expect(credentialReads(from)).toHaveLength(1);
    expect(shown).toContain(password());
    expect(posts.every((p) => p.body.response_type === 'ephemeral' && p.body.replace_original === false)).toBe(true);
    expect(channelText()).not.toContain(password());
    expect(JSON.stringify(rig.slack.callsTo('chat.postMessage').concat(rig.slack.callsTo('chat.update')))).not.toContain(password());
    expect(await auditOf({ userId: ALICE.id, opId: 'server.credentials', outcome: 'succeeded' })).toBeDefined();
  });

  it('a viewer clicking Snooze is refused (muting is operator tier); nothing is muted', async () => {
    const { shown } = await clickAlert(rig, alert, buttons['Snooze 1 h']!, CAROL.id);
    expect(shown).toMatch(refusal('operator'));
    expect((await subsHere())[0]!.mutedUntil).toBeNull();
    expect(await auditOf({ userId: CAROL.id, opId: 'mute.set', outcome: 'refused' })).toBeDefined();
  });

  it('an operator’s Snooze mutes the subscription for an hour: listed as muted, audited', async () => {
    const clickedAt = rig.clock.now();
    const { shown, from } = await clickAlert(rig, alert, buttons['Snooze 1 h']!, BOB.id);
    const [sub] = await subsHere();
    expect(shown).toContain(sub!.id);
    expect(sub!.mutedUntil).toBeGreaterThanOrEqual(clickedAt + 3_600_000);
    expect(sub!.mutedUntil).toBeLessThan(clickedAt + 3_600_000 + 60_000);
    expect(rig.sandbox.requests.slice(from)).toEqual([]); // a bot-side change: the cloud is not asked
    expect(visibleText((await rig.command('subscriptions', { userId: CAROL.id })).final)).toMatch(new RegExp(`${sub!.id}.*muted until`));
    expect(await auditOf({ userId: BOB.id, opId: 'mute.set', outcome: 'succeeded' })).toBeDefined();
  });

  /** The alert as a forged click would carry it: one button's value replaced. */
  const forged = (label: string, value: unknown) => {
    const blocks = structuredClone(alert.blocks) as { type: string; elements?: { text?: { text: string }; value?: string }[] }[];
    const el = blocks.flatMap((b) => b.elements ?? []).find((e) => e.text?.text === label)!;
    el.value = JSON.stringify(value);
    return { ...alert, blocks };
  };

  it('a forged value cannot name another operation: no alias saved, no subscription added, nothing audited as run', async () => {
    const subsBefore = (await subsHere()).length;
    for (const value of [
      { op: 'alias.create', args: { name: 'forged', command: 'server status 101' } },
      { op: 'subscribe.usage', args: {} },
      { op: 'server.rename', args: { server: '101', name: 'forged' } },
    ]) {
      const { shown, from } = await clickAlert(rig, forged('Server status', value), buttons['Server status']!, BOB.id);
      expect(shown).toMatch(/out of date|could not be read/);
      expect(rig.mutations(from)).toEqual([]);
      expect(rig.sandbox.requests.slice(from)).toEqual([]);
    }
    expect(await rig.store.aliases.list(OPS_CHANNEL.id)).toEqual([]);
    expect(await subsHere()).toHaveLength(subsBefore);
    expect((await audit()).filter((e) => e.opId === 'alias.create' || e.opId === 'subscribe.usage' || e.opId === 'server.rename')).toEqual([]);
  });

  it('a forged value naming a read the alert did not draw (another server) runs nothing', async () => {
    const { shown, from } = await clickAlert(rig, forged('Server status', { op: 'server.status', args: { server: '102' } }), buttons['Server status']!, BOB.id);
    expect(shown).toMatch(/out of date|could not be read/);
    expect(rig.sandbox.requests.slice(from)).toEqual([]);
  });

  it('a forged snooze value cannot mute another subscription or for another time', async () => {
    const other = await rig.store.subscriptions.add({ channelId: OPS_CHANNEL.id, account: null, kind: 'usage', resource: '', createdBy: BOB.id, createdAt: rig.clock.now() });
    const { shown } = await clickAlert(rig, forged('Snooze 1 day', { sub: other.record.id, ms: 86_400_000 }), buttons['Snooze 1 day']!, BOB.id);
    expect(shown).toMatch(/out of date|could not be read/);
    expect((await rig.store.subscriptions.get(other.record.id))!.mutedUntil).toBeNull();
    await rig.store.subscriptions.remove(other.record.id, rig.clock.now());
  });
});
