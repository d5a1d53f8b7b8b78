/**
 * The audit trail says what happened: a command of the bot's own that it refused (a schedule
 * with a time it cannot run, an alias or window that does not exist, a maintenance end in the
 * past) did nothing, and is audited `failed` with the reason's code — never `succeeded`. What
 * it did do stays `succeeded`. (operations/types.ts `declined`.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/domain/audit-entry.js';
import { BOB } from '../rig/workspace.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

let rig: BotRig;
beforeAll(async () => {
  rig = await startBotRig();
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

/** Runs `text` as Bob and returns what he saw and the one audit entry it left. */
async function audited(text: string): Promise<{ said: string; entry: AuditEntry }> {
  const before = (await rig.store.audit.list({ limit: 1000 })).length;
  const r = await rig.command(text, { userId: BOB.id });
  const entries = await rig.store.audit.list({ limit: 1000 });
  expect(entries.length, text).toBe(before + 1);
  const entry = entries.reduce((a, b) => (b.id > a.id ? b : a));
  return { said: visibleText(r.final), entry };
}

describe('commands the bot refuses itself are audited as failed, with why', () => {
  it.each([
    ['schedule "server status 101" "*/2 * * * *"', 'schedule.create', 'INVALID_INPUT', 'at most every 5 minutes'],
    ['alias delete nosuchalias', 'alias.delete', 'NOT_FOUND', 'nosuchalias'],
    ['maintenance server 101 until 2020-01-01 00:00', 'maintenance.server', 'INVALID_INPUT', 'No maintenance window was started: `until 2020-01-01 00:00` (`Europe/Berlin`) is not in the future.'],
  ])('%s', async (text, opId, code, words) => {
    const { said, entry } = await audited(text);
    expect(said).toContain(words);
    expect(entry).toMatchObject({ opId, outcome: 'failed', errorCode: code, userId: BOB.id });
  });

  it('what was done stays succeeded: an alias saved, then deleted', async () => {
    expect((await audited('alias create st = server status $1')).entry).toMatchObject({ opId: 'alias.create', outcome: 'succeeded', errorCode: null });
    expect((await audited('alias create st = server status $1')).entry).toMatchObject({ opId: 'alias.create', outcome: 'failed', errorCode: 'NAME_TAKEN' });
    expect((await audited('alias delete st')).entry).toMatchObject({ opId: 'alias.delete', outcome: 'succeeded', errorCode: null });
  });
});
