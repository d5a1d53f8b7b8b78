/**
 * Aliases end to end (issue 14): saved per channel, run as if typed — the expanded command goes
 * through the same access check and confirmation as typing it, and the answer names it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { ALICE, BOB, CAROL, OPS_CHANNEL } from '../rig/workspace.js';

let rig: BotRig;
const h = rigHelpers(() => rig);
beforeAll(async () => {
  rig = await startBotRig();
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
  expect(rig.responses.violations).toEqual([]);
});

const paths = (r: { cloudRequests: { method: string; rawPath: string }[] }) => r.cloudRequests.map((q) => `${q.method} ${q.rawPath}`);

describe('aliases', () => {
  it('an operator saves `web = server status $1`; `/cloud web 101` reads server 101 and says what ran', async () => {
    const saved = await rig.command('alias web = server status $1', { userId: BOB.id });
    expect(visibleText(saved.final)).toMatch(/Saved: `\/cloud web` runs `\/cloud server status \$1`/);
    expect(saved.cloudRequests).toEqual([]);

    const r = await rig.command('web 101');
    expect(paths(r)).toEqual(['GET /v2/servers/101/status']);
    expect(visibleText(r.final)).toMatch(/Ran `\/cloud server status 101` \(alias `web`\)/);
    expect(visibleText(r.final)).toMatch(/Server 101[\s\S]*running/);
  });

  it('a viewer may run an alias but not save or delete one', async () => {
    const ran = await rig.command('web 101', { userId: CAROL.id });
    expect(paths(ran)).toEqual(['GET /v2/servers/101/status']);
    const save = await rig.command('alias mine = server ips $1', { userId: CAROL.id });
    expect(visibleText(save.final)).toMatch(/operator/i);
    expect(await rig.store.aliases.get(OPS_CHANNEL.id, 'mine')).toBeUndefined();
    const del = await rig.command('alias delete web', { userId: CAROL.id });
    expect(visibleText(del.final)).toMatch(/operator/i);
    expect(await rig.store.aliases.get(OPS_CHANNEL.id, 'web')).toBeDefined();
  });

  it('an alias to a destroy still needs the role, and still asks to confirm', async () => {
    const saved = await rig.command('alias rmkey = ssh-key delete $1', { userId: BOB.id });
    expect(visibleText(saved.final)).toContain('Saved');

    // Bob (operator) may save it but not run it: deleting a key is an admin's.
    const before = rig.sandbox.requests.length;
    const refused = await rig.command('rmkey 11', { userId: BOB.id });
    expect(visibleText(refused.final)).toMatch(/admin/i);
    expect(rig.mutations(before)).toEqual([]);

    // Alice (admin): the confirmation is posted; nothing is deleted until someone confirms.
    const start = Date.now();
    const r = await rig.command('rmkey 11');
    expect(visibleText(r.final)).toMatch(/Ran `\/cloud ssh-key delete 11` \(alias `rmkey`\)/);
    const msg = await rig.statusMessage(OPS_CHANNEL.id, start - 1);
    expect(h.buttons(msg)).toContain('"action_id":"op_confirm"');
    expect(rig.mutations(before)).toEqual([]);
  });

  it('says how many arguments an alias needs', async () => {
    const r = await rig.command('web');
    expect(visibleText(r.final)).toMatch(/`web` needs 1 argument \(`\$1`\)/);
    expect(r.cloudRequests).toEqual([]);
    const more = await rig.command('web 101 102');
    expect(visibleText(more.final)).toMatch(/`102` is more than it takes/);
  });

  it('help lists the channel’s aliases with their commands; /cloud aliases lists them too', async () => {
    const help = await rig.command('help');
    expect(visibleText(help.final)).toMatch(/Aliases in this channel[\s\S]*`web` → `\/cloud server status \$1`/);
    // Bob may not run what `rmkey` runs, so his help leaves it out.
    const bobs = await rig.command('help', { userId: BOB.id });
    expect(visibleText(bobs.final)).toContain('`web`');
    expect(visibleText(bobs.final)).not.toContain('rmkey');
    const list = await rig.command('aliases');
    expect(visibleText(list.final)).toMatch(/`rmkey` → `\/cloud ssh-key delete \$1`[\s\S]*`web` → /);
  });

  it('refuses a name that is a resource word, an alias that runs an alias, and a taken name', async () => {
    for (const word of ['server', 'srv', 'help']) {
      const r = await rig.command(`alias ${word} = server status $1`, { userId: BOB.id });
      expect(visibleText(r.final), word).toMatch(/already a command word/);
    }
    const nested = await rig.command('alias web2 = web $1', { userId: BOB.id });
    expect(visibleText(nested.final)).toMatch(/cannot run another alias/);
    const taken = await rig.command('alias web = server ips $1', { userId: ALICE.id });
    expect(visibleText(taken.final)).toMatch(/already an alias here/);
    expect((await rig.store.aliases.get(OPS_CHANNEL.id, 'web'))?.command).toBe('server status $1');
  });

  it('is deleted by its creator or an admin only', async () => {
    expect(visibleText((await rig.command('alias addrs = server ips $1', { userId: ALICE.id })).final)).toContain('Saved');
    const notBobs = await rig.command('alias delete addrs', { userId: BOB.id });
    expect(visibleText(notBobs.final)).toMatch(/only they or an admin may delete it/);
    expect(await rig.store.aliases.get(OPS_CHANNEL.id, 'addrs')).toBeDefined();
    const own = await rig.command('alias delete web', { userId: BOB.id });
    expect(visibleText(own.final)).toMatch(/Deleted the alias `web`/);
    const admin = await rig.command('alias delete rmkey', { userId: ALICE.id });
    expect(visibleText(admin.final)).toMatch(/Deleted the alias `rmkey`/);
    const gone = await rig.command('web 101');
    expect(visibleText(gone.final)).toMatch(/I don't know `web`/);
  });
});
