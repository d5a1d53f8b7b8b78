/**
 * The root password a reinstall produces is a credential: it reaches its requester only if they
 * may read server credentials in the request's channel, on its account, when it is sent — as a
 * watch's password does (watch/final-post.ts). Not to a requester whose role was taken away
 * while the change waited for another admin's Confirm, nor where the channel's ceiling keeps
 * credentials out ("no server credentials from this channel, whoever asks"). The change itself
 * goes on, and its status message says where the password went, truthfully.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL, type FakeUser } from '../rig/workspace.js';
import { rigHelpers, startBotRig, type BotRig } from './bot-rig.js';

const ERIN: FakeUser = { id: 'UERIN00005', name: 'erin', realName: 'Erin Admin' };
const ADMINS = 'SADMINS001';

describe('a requester whose role was taken away while the reinstall waited', () => {
  let rig: BotRig;
  const { text, until, confirmByTyping, ephemeralTo } = rigHelpers(() => rig);
  beforeAll(async () => {
    rig = await startBotRig({ access: { admins: [ERIN.id, ADMINS], operators: [] }, extraUsers: [ERIN], groupCacheMs: 0 });
  });
  afterAll(async () => {
    await rig.close();
    expect(rig.slack.violations).toEqual([]);
  });
  afterEach(() => rig.slack.setMembers(ADMINS, []));

  it('is not sent the new root password; another admin’s Confirm still reinstalls, and the card says the password was not sent', async () => {
    rig.slack.setMembers(ADMINS, [ALICE.id]);
    const from = rig.slack.calls.length;
    await rig.sendCommand('server reinstall 104 --template debian-12', { userId: ALICE.id });
    const msg = await rig.postedSince(from);
    expect(text(msg)).toContain('awaiting confirmation');
    rig.slack.setMembers(ADMINS, []); // Alice is no longer an admin
    await confirmByTyping(msg, 'staging-1.example.net', ERIN.id);
    const done = await until(msg, 'root password was not sent');
    expect(text(done)).toContain('sent `POST /servers/104/reinstall`');
    const password = rig.sandbox.state.servers.find((s) => s.id === 104)!.rootPassword ?? 'no-password-yet';
    // The refusal is audited as a `server credentials` refused to Alice, after the change's own entry.
    const refused = await waitFor(async () => (await rig.store.audit.list({ limit: 10 })).find((e) => e.opId === 'server.credentials' && e.outcome === 'refused'), { timeoutMs: 5000 });
    expect(refused).toMatchObject({ userId: ALICE.id, channelId: OPS_CHANNEL.id, errorCode: 'ACCESS_DENIED' });
    const sentToAlice = rig.slack.callsTo('chat.postEphemeral').filter((c) => c.params.user === ALICE.id);
    expect(JSON.stringify(sentToAlice)).not.toMatch(/New root password/);
    expect(JSON.stringify(rig.slack.calls)).not.toContain(password);
    expect(text(done)).toContain('Its root password was not sent to the requester, who may not read server credentials here; `/cloud server credentials 104` shows it to whoever may read it.');
    expect(text(done)).not.toContain('sent privately to the requester');
    expect(ephemeralTo(ERIN.id).join('\n')).not.toMatch(/New root password/);
  });
});

describe('a channel whose ceiling keeps server credentials out', () => {
  let rig: BotRig;
  const { text, until, confirmByTyping } = rigHelpers(() => rig);
  beforeAll(async () => {
    rig = await startBotRig({
      policy: { version: 1, default_channel: 'deny', channels: { [OPS_CHANNEL.id]: { ceiling: ['read', 'change', 'destroy'], approval: [], admins: [], operators: [], viewers: [] } } },
    });
  });
  afterAll(async () => {
    await rig.close();
    expect(rig.slack.violations).toEqual([]);
  });

  it('does not get the reinstall’s root password either, as `server credentials` is refused there', async () => {
    const creds = await rig.command('server credentials 104');
    expect(creds.cloudRequests).toEqual([]);
    const refusals = async () => (await rig.store.audit.list({ limit: 20 })).filter((e) => e.opId === 'server.credentials' && e.outcome === 'refused');
    expect(await refusals()).toHaveLength(1); // the typed one
    const from = rig.slack.calls.length;
    await rig.sendCommand('server reinstall 104 --template debian-12');
    const msg = await rig.postedSince(from);
    await confirmByTyping(msg, 'staging-1.example.net', ALICE.id);
    const done = await until(msg, 'root password was not sent');
    expect(text(done)).toContain('sent `POST /servers/104/reinstall`');
    const [refused] = await waitFor(async () => ((await refusals()).length === 2 ? await refusals() : undefined), { timeoutMs: 5000 });
    expect(refused).toMatchObject({ userId: ALICE.id, channelId: OPS_CHANNEL.id, errorCode: 'CHANNEL_CEILING', args: { server: '104' } });
    const password = rig.sandbox.state.servers.find((s) => s.id === 104)!.rootPassword ?? 'no-password-yet';
    expect(JSON.stringify(rig.slack.calls)).not.toContain(password);
    expect(JSON.stringify(rig.slack.callsTo('chat.postEphemeral'))).not.toMatch(/New root password/);
    expect(text(done)).toContain('Its root password was not sent to the requester, who may not read server credentials here');
  });
});
