/**
 * The audit trail shows a maintenance window's `<when>` as it was typed (`90m`,
 * `until 2099-01-01 10:00`), not the structure it was parsed into, and a mute's duration as
 * typed (`2h`), not in milliseconds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE, BOB } from '../rig/workspace.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

let rig: BotRig;
afterEach(async () => {
  await rig?.close();
  expect(rig.slack.violations).toEqual([]);
});

describe('the audit trail of a maintenance window', () => {
  it('names <when> as typed, whether the window started or was refused', async () => {
    rig = await startBotRig();
    await rig.command('maintenance server 101 90m', { userId: BOB.id });
    await rig.command('maintenance account until 2099-01-01 10:00', { userId: BOB.id });
    const stored = (await rig.store.audit.list({ limit: 10 })).filter((e) => e.opId.startsWith('maintenance.'));
    expect(stored.map((e) => e.args.when).sort()).toEqual(['90m', 'until 2099-01-01 10:00']);
    const shown = visibleText((await rig.command('audit', { userId: ALICE.id })).final);
    expect(shown).toContain('when=`90m`');
    expect(shown).toContain('when=`until 2099-01-01 10:00`');
    expect(shown).not.toContain('{"');
  });
});

describe('the audit trail of a mute', () => {
  it('names its duration as typed, not in milliseconds', async () => {
    rig = await startBotRig();
    const sub = /sub_[a-z2-7]{10}/.exec(visibleText((await rig.command('subscribe server 101', { userId: BOB.id })).final))![0];
    await rig.command(`mute ${sub} 90m`, { userId: BOB.id });
    await rig.command(`mute ${sub} 2h`, { userId: BOB.id });
    await rig.command(`mute ${sub} off`, { userId: BOB.id });
    const stored = (await rig.store.audit.list({ limit: 10 })).filter((e) => e.opId === 'mute.set');
    expect(stored.map((e) => e.args.duration).sort()).toEqual(['2h', '90m', 'off']);
  });
});
