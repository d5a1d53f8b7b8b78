/**
 * A schedule's run is checked again under the channel's rules at run time (issue 25): the
 * policy file reloaded between scheduling and the run lowers the channel's ceiling, so the run
 * sends nothing, says why in the channel, and the refusal is audited.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPolicyFile } from '../../src/access/policy-file.js';
import { ALICE, type FakeChannel } from '../rig/workspace.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

const PROD: FakeChannel = { id: 'CPROD00001', name: 'prod-ops', botIsMember: true };

describe('rights lost between scheduling and the run', () => {
  let dir: string;
  let path: string;
  let live: BotRig;
  const file = (ceiling: string) =>
    `version: 1\naccounts:\n  prod: { base_url: __PROD__, token_env: CLOUD_PROD_TOKEN }\ndefault_channel: deny\nchannels:\n  ${PROD.id}: { account: prod, ceiling: ${ceiling}, approval: [] }\n`;
  let url = '';
  const load = (urls: Record<string, string>) => {
    url = urls.prod!;
    writeFileSync(path, readFileSync(path, 'utf8').replace('__PROD__', url));
    return readPolicyFile(path, { hasEnv: (n) => n === 'CLOUD_PROD_TOKEN' });
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'schedule-rights-'));
    path = join(dir, 'policy.yaml');
    writeFileSync(path, file('[read, change]'));
    live = await startBotRig({ accounts: { prod: { token: 'prod-token-e2e-aaaaaaaaaaaa' } }, policy: load, reloadPolicy: load, policyPath: path, extraChannels: [PROD] });
  });
  afterAll(async () => {
    await live.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the run sends nothing and says why in the channel; the refusal is audited', async () => {
    const cloud = live.accounts.prod!.sandbox;
    const r = await live.command('schedule "server rename 101 renamed-later" in 1h', { channelId: PROD.id });
    const id = /sch_[0-9a-f]{10}/.exec(visibleText(r.final))![0];
    const s = (await live.store.schedules.get(id))!;
    expect(s.status).toBe('active');

    writeFileSync(path, file('[read]').replace('__PROD__', url));
    expect((await live.bot.reloadPolicy('signal')).kind).toBe('changed');

    const from = cloud.requests.length;
    const seen = live.slack.messages.inChannel(PROD.id).length;
    live.clock.jump!(s.nextAt! - live.clock.now() + 1);
    await live.bot.scheduler.tick();
    await live.bot.scheduler.settled();
    expect(cloud.requests.slice(from)).toEqual([]);
    const said = live.slack.messages.inChannel(PROD.id).slice(seen).map((m) => visibleText({ text: m.text, blocks: m.blocks }));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`Scheduled run of \`/cloud server rename 101 renamed-later\` (\`${id}\``);
    expect(said[0]).toContain('sent nothing');
    expect(said[0]).toContain(`channels.${PROD.id}`);
    const refused = (await live.store.audit.list({ limit: 20 })).find((e) => e.opId === 'server.rename' && e.outcome === 'refused');
    expect(refused).toMatchObject({ userId: ALICE.id, channelId: PROD.id, errorCode: 'CHANNEL_CEILING' });
    expect(await live.store.schedules.get(id)).toMatchObject({ status: 'done', lastResult: 'refused' });
  });
});
