/**
 * Policy as code end to end: the policy file is read again on SIGHUP (`reloadPolicy`); the
 * next command is decided by the new file, the change is audited, and a broken file is
 * refused with the old policy still in force.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPolicyFile } from '../../src/access/policy-file.js';
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
    `version: 1\naccounts:\n  prod: { base_url: __PROD__, token_env: CLOUD_PROD_TOKEN }\nchannels:\n  ${CH}: { account: prod, ceiling: ${ceiling} }\n`;
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
    expect(outcome).toEqual({ kind: 'changed', changes: [`channels.${CH}.ceiling: read, change → read`] });

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
