/**
 * A malformed id is answered quoting what was typed, as every other id error is (the quoted
 * part shown as an inert value): `/cloud unsubscribe xyz` and `/cloud maintenance end xyz`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

let rig: BotRig;
afterEach(async () => {
  await rig?.close();
  expect(rig.slack.violations).toEqual([]);
});

describe('a malformed subscription or maintenance window id', () => {
  it('is quoted back as typed, not answered with the placeholder alone', async () => {
    rig = await startBotRig();
    const unsub = visibleText((await rig.command('unsubscribe xyz')).final);
    expect(unsub).toContain('`xyz` is not a subscription id');
    const end = visibleText((await rig.command('maintenance end *bold*')).final);
    expect(end).toContain('`*bold*` is not a maintenance window id');
    expect(rig.sandbox.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
