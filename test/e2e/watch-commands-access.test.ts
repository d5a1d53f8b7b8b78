/**
 * Typed `watch` commands are decided by the watch (issue 21, as the App Home tab and Keep
 * watching are): `watch list` shows only the watches this person may read — in each watch's
 * channel, on its account — and by default only the channel's own; `watch cancel` is checked in
 * the watch's channel, on its account, never only where it was typed. Two accounts, a
 * read-only channel that may not use prod, and people whose only role is in that channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, CAROL, type FakeChannel } from '../rig/workspace.js';
import { NO_ROLES, twoAccountPolicy } from './two-accounts.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

const DAVE = 'UDAVE00004'; // on no list (CLOUD_VIEWERS is set)
const ERIN = 'UERIN00005'; // a viewer only in READONLY
const FRANK = 'UFRANK0006'; // an operator only in READONLY
const PEOPLE = [DAVE, ERIN, FRANK].map((id) => ({ id, name: id.toLowerCase(), realName: id }));
const STAGE: FakeChannel = { id: 'C0STAGING1', name: 'staging', botIsMember: true };
const READONLY: FakeChannel = { id: 'C0READONL1', name: 'readonly', botIsMember: true };

const POLICY = (urls: Record<string, string>) =>
  twoAccountPolicy(urls, {
    [STAGE.id]: { account: 'staging', accounts: ['prod'], ...NO_ROLES },
    [READONLY.id]: { account: 'staging', ceiling: ['read'], ...NO_ROLES, viewers: [ERIN], operators: [FRANK] },
  });

let rig: BotRig;
let prodInStage: string;
let stagingInReadonly: string;
let prodInReadonly: string;
beforeAll(async () => {
  rig = await startBotRig({
    accounts: { prod: { token: 'prod-token-e2e-cccccccccccc' }, staging: { token: 'staging-token-e2e-dddddddd' } },
    policy: POLICY,
    extraChannels: [STAGE, READONLY],
    extraUsers: PEOPLE,
    access: { admins: [ALICE.id], operators: [BOB.id], viewers: [CAROL.id] },
    monitor: { monitorLoop: false },
  });
  prodInStage = (await watch('list-prod-in-staging', STAGE.id, 'prod')).id;
  stagingInReadonly = (await watch('list-staging-in-readonly', READONLY.id, 'staging')).id;
  // A channel that may no longer use prod still has a prod watch (the policy changed since).
  prodInReadonly = (await watch('list-prod-in-readonly', READONLY.id, 'prod')).id;
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

/** A watch as `--watch` leaves it: its own message in the channel, whose thread gets the updates. */
async function watch(resource: string, channelId: string, account: string) {
  const now = rig.clock.now();
  const parent = await rig.bot.slackApi.postMessage({ channel: channelId, text: `Watching ${resource}`, blocks: [] });
  return rig.store.watches.create({ kind: 'server', resource, channelId, account, threadTs: parent.ts, requestedBy: ALICE.id, intervalMs: 60_000, startedAt: now, deadlineAt: now + 3_600_000, nextPollAt: now + 3_600_000 });
}
const typed = async (text: string, userId: string, channelId: string) => visibleText((await rig.command(text, { userId, channelId })).final);
const status = async (id: string) => (await rig.store.watches.get(id))!.status;

describe('watch list shows only what the person may read', () => {
  it('in a channel: that channel’s watches only, and it says so', async () => {
    const shown = await typed('watch list', CAROL.id, STAGE.id);
    expect(shown).toMatch(/list-prod-in-staging/);
    expect(shown).not.toMatch(/list-staging-in-readonly/);
    expect(shown).toContain(`<#${STAGE.id}>`);
    expect(shown).toContain('--all');
  });

  it('a viewer only in the read-only channel does not see #staging’s prod watch, even with --all', async () => {
    for (const text of ['watch list', 'watch list --all']) {
      const shown = await typed(text, ERIN, READONLY.id);
      expect(shown).toMatch(/list-staging-in-readonly/);
      // Neither #staging's prod watch nor this channel's own prod watch: the channel may not use prod.
      expect(shown).not.toMatch(/list-prod-in-/);
    }
  });

  it('--all: the watches of every channel the person may read, each naming its channel', async () => {
    const shown = await typed('watch list --all', CAROL.id, READONLY.id);
    expect(shown).toMatch(new RegExp(`list-prod-in-staging[^\\n]*<#${STAGE.id}>`));
    expect(shown).toMatch(new RegExp(`list-staging-in-readonly[^\\n]*<#${READONLY.id}>`));
  });

  it('someone on no list is refused, and sees no watch', async () => {
    const shown = await typed('watch list --all', DAVE, STAGE.id);
    expect(shown).not.toMatch(/list-/);
    expect(shown).toMatch(/no role/i);
  });
});

describe('watch cancel is checked against the watch', () => {
  it('an operator of the read-only channel cannot stop #staging’s prod watch from there', async () => {
    const shown = await typed(`watch cancel ${prodInStage}`, FRANK, READONLY.id);
    expect(shown).not.toMatch(/Stopped watch/);
    expect(shown).toContain(`<#${STAGE.id}>`);
    expect(await status(prodInStage)).toBe('active');
    expect((await rig.store.audit.list({ userId: FRANK, limit: 5 })).map((e) => [e.opId, e.outcome, e.channelId])).toContainEqual(['watch.cancel', 'refused', STAGE.id]);
    expect(rig.slack.messages.inChannel(STAGE.id).some((m) => /cancelled by/.test(m.text))).toBe(false);
  });

  it('a viewer of the watch’s channel may read it but not stop it', async () => {
    const shown = await typed(`watch cancel ${stagingInReadonly}`, ERIN, READONLY.id);
    expect(shown).toMatch(/operator/);
    expect(await status(stagingInReadonly)).toBe('active');
  });

  it('a watch on an account its channel may no longer use is not stopped through that channel', async () => {
    const shown = await typed(`watch cancel ${prodInReadonly}`, FRANK, READONLY.id);
    expect(shown).toMatch(/prod/);
    expect(await status(prodInReadonly)).toBe('active');
  });

  it('in its own channel, by someone who may change there and read it on its account, it stops', async () => {
    const shown = await typed(`watch cancel ${stagingInReadonly}`, FRANK, READONLY.id);
    expect(shown).toContain(`Stopped watch \`${stagingInReadonly}\``);
    expect(await status(stagingInReadonly)).toBe('cancelled');
  });

  it('an operator stops #staging’s prod watch from another channel: decided in #staging, where they may', async () => {
    const shown = await typed(`watch cancel ${prodInStage}`, BOB.id, READONLY.id);
    expect(shown).toContain(`Stopped watch \`${prodInStage}\``);
    expect(await status(prodInStage)).toBe('cancelled');
  });
});
