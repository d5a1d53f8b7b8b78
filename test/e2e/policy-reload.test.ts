/**
 * Policy as code end to end: the policy file is read again on SIGHUP (`reloadPolicy`); the
 * next command is decided by the new file, the change is audited, and a broken file is
 * refused with the old policy still in force.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPolicyFile, type PolicyFileReader } from '../../src/access/policy-file.js';
import { waitFor } from '../rig/wait-for.js';
import type { FakeChannel } from '../rig/workspace.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

const PROD_TOKEN = 'prod-token-e2e-aaaaaaaaaaaa';
const PROD: FakeChannel = { id: 'CPROD00001', name: 'prod-ops', botIsMember: true };

describe('a reloaded policy decides the next command', () => {
  let dir: string;
  let path: string;
  let live: BotRig;
  const CH = PROD.id;
  const file = (ceiling: string) =>
    `version: 1\naccounts:\n  prod: { base_url: __PROD__, token_env: CLOUD_PROD_TOKEN }\ndefault_channel: deny\nchannels:\n  ${CH}: { account: prod, ceiling: ${ceiling}, approval: [] }\n`;
  const write = (content: string) => writeFileSync(path, content);
  const load = (urls: Record<string, string>) => {
    // The file names the sandbox's URL, known only once it listens.
    writeFileSync(path, readFileSync(path, 'utf8').replace('__PROD__', urls.prod!));
    return readPolicyFile(path, { hasEnv: (n) => n === 'CLOUD_PROD_TOKEN' });
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'policy-reload-'));
    path = join(dir, 'policy.yaml');
    write(file('[read, change]'));
    live = await startBotRig({ accounts: { prod: { token: PROD_TOKEN } }, policy: load, reloadPolicy: load, policyPath: path, extraChannels: [PROD] });
  });
  afterAll(async () => {
    await live.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const liveAudit = async () => live.store.audit.list({ limit: 100 });

  it('a lowered ceiling refuses the next change; the reload is audited with the change', async () => {
    const cloud = live.accounts.prod!.sandbox;
    await live.sendCommand('server rename 101 before-reload', { channelId: CH });
    await waitFor(() => cloud.requests.some((r) => r.method === 'PATCH'), { timeoutMs: 5000 });

    write(file('[read]'));
    const outcome = await live.bot.reloadPolicy('signal');
    expect(outcome).toEqual({ kind: 'changed', changes: [`channels.${CH}.ceiling: read, change → read`], widenings: [] });

    const from = cloud.requests.length;
    const r = await live.command('server rename 101 after-reload', { channelId: CH });
    expect(visibleText(r.final)).toContain(`channels.${CH}.ceiling`);
    expect(cloud.requests.length).toBe(from);

    const entry = (await liveAudit()).find((e) => e.opId === 'policy.reload');
    expect(entry).toMatchObject({ outcome: 'succeeded', args: { trigger: 'signal' } });
    expect(entry!.detail).toContain(`channels.${CH}.ceiling: read, change → read`);
  });

  it('a broken file is refused: the previous policy still decides, and the failure is audited', async () => {
    const cloud = live.accounts.prod!.sandbox;
    write(`${file('[read, change]')}  general: { account: nosuch }\n`); // a bad channel id and an unknown account
    const refused = await live.bot.reloadPolicy('signal');
    expect(refused.kind).toBe('refused');
    write('channels: [unclosed');
    expect((await live.bot.reloadPolicy('interval')).kind).toBe('refused');

    const from = cloud.requests.length;
    const r = await live.command('server rename 101 still-refused', { channelId: CH });
    expect(visibleText(r.final)).toContain(`channels.${CH}.ceiling`);
    expect(cloud.requests.length).toBe(from);
    await live.command('account usage', { channelId: CH });
    expect(cloud.requests.slice(from).map((q) => q.rawPath)).toEqual(['/v2/account/usage']);

    const failed = (await liveAudit()).filter((e) => e.opId === 'policy.reload' && e.outcome === 'failed');
    expect(failed).toHaveLength(2);
    expect(failed.map((e) => e.errorCode)).toEqual(['POLICY_REFUSED', 'POLICY_REFUSED']);
    expect(failed.map((e) => e.args.trigger).sort()).toEqual(['interval', 'signal']);
    expect(failed.some((e) => (e.detail ?? '').includes('nosuch'))).toBe(true);
  });
});

/** Issue 21 item 4: a file cut short, caught mid-save, or loosened is never taken as "allow" silently. */
describe('a policy reload never widens access by accident', () => {
  let dir: string;
  let path: string;
  let live: BotRig;
  let prodUrl = '';
  /** How the next reload reads the file: the disk, unless a test plays an editor saving mid-read. */
  let reader: PolicyFileReader | undefined;
  const CH = PROD.id;
  // The README's order: default_channel comes after accounts, channels last.
  const file = (ceiling: string, defaultChannel = 'deny') =>
    `version: 1\naccounts:\n  prod:\n    base_url: ${prodUrl}\n    token_env: CLOUD_PROD_TOKEN\ndefault_channel: ${defaultChannel}\nchannels:\n  ${CH}:\n    account: prod\n    ceiling: ${ceiling}\n    approval: []\n`;
  const write = (content: string) => writeFileSync(path, content);
  const load = (urls: Record<string, string>) => {
    prodUrl = urls.prod!;
    if (!readFileSync(path, 'utf8')) write(file('[read]'));
    return readPolicyFile(path, { hasEnv: (n) => n === 'CLOUD_PROD_TOKEN', ...(reader ? { reader } : {}) });
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'policy-widen-'));
    path = join(dir, 'policy.yaml');
    write('');
    live = await startBotRig({ accounts: { prod: { token: PROD_TOKEN } }, policy: load, reloadPolicy: load, policyPath: path, extraChannels: [PROD] });
  });
  afterAll(async () => {
    await live.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const audit = async () => live.store.audit.list({ limit: 100 });
  /** In force: the unlisted channel is refused, and CH may read but not change. */
  const expectOldPolicy = async () => {
    const cloud = live.accounts.prod!.sandbox;
    const from = cloud.requests.length;
    const unlisted = await live.command('account usage');
    expect(visibleText(unlisted.final)).toContain('default_channel');
    const change = await live.command('server rename 101 widened', { channelId: CH });
    expect(visibleText(change.final)).toContain(`channels.${CH}.ceiling`);
    expect(cloud.requests.length).toBe(from);
  };

  it('the file cut just before `default_channel:` is refused at the interval reload; the old policy stays', async () => {
    const full = file('[read]');
    write(full.slice(0, full.indexOf('default_channel:')));
    const outcome = await live.bot.reloadPolicy('interval');
    expect(outcome.kind).toBe('refused');
    expect(outcome.kind === 'refused' && outcome.message).toContain('default_channel is required');
    expect(outcome.kind === 'refused' && outcome.message).toContain('channels is required');
    await expectOldPolicy();
    const failed = (await audit()).find((e) => e.opId === 'policy.reload' && e.outcome === 'failed');
    expect(failed?.detail).toContain('default_channel is required');
    // A channel rule cut before its ceiling would allow every tier there: refused too.
    write(full.slice(0, full.indexOf('    ceiling:')));
    const cut = await live.bot.reloadPolicy('interval');
    expect(cut.kind === 'refused' && cut.message).toContain(`channels.${CH}.ceiling is required`);
    await expectOldPolicy();
    write(full);
  });

  it('a file that changes while it is read is not judged; it is read again shortly and the saved file decides', async () => {
    let saves = 0;
    // An editor finishing its save between the bot's two reads: the first read sees the old half.
    reader = {
      stat: (p) => statSync(p),
      read: (p) => {
        const text = readFileSync(p, 'utf8');
        if (saves++ === 0) write(file('[read]').replace('approval: []', 'approval: [change]'));
        return text;
      },
    };
    write(file('[read, change]', '{ account: prod, ceiling: [read, change, billing, destroy, secret], approval: [] }'));
    const outcome = await live.bot.reloadPolicy('signal');
    expect(outcome.kind).toBe('changing');
    await expectOldPolicy(); // not the file as it was while being saved
    await waitFor(() => live.logLines.some((l) => l.includes('policy reloaded') && l.includes(`channels.${CH}.approval: (empty) → change`)), { timeoutMs: 5000 });
    expect(live.logLines.some((l) => l.includes('changed while it was read'))).toBe(true);
    await expectOldPolicy();
    reader = undefined;
  });

  it('a reload that widens access is logged and audited as `policy.widened`, with what it widens', async () => {
    write(file('[read, change]', '{ account: prod, ceiling: [read], approval: [] }'));
    const outcome = await live.bot.reloadPolicy('signal');
    expect(outcome.kind === 'changed' && outcome.widenings).toEqual([
      `channels.${CH}.ceiling: + change (now channels.${CH})`,
      `channels.${CH}.approval: − change (now channels.${CH})`,
      'unlisted channels: denied → allowed on account prod, ceiling read (now default_channel)',
    ]);
    const entry = (await audit()).find((e) => e.opId === 'policy.widened');
    expect(entry).toMatchObject({ outcome: 'succeeded', args: { trigger: 'signal' } });
    expect(entry!.detail).toContain('widens access: ');
    expect(entry!.detail).toContain('unlisted channels: denied → allowed');
    expect(live.logLines.some((l) => l.includes('WIDENS access') && l.includes('"level":"warn"'))).toBe(true);
    // Narrowing again is an ordinary reload.
    write(file('[read]'));
    const back = await live.bot.reloadPolicy('signal');
    expect(back.kind === 'changed' && back.widenings).toEqual([]);
  });
});
