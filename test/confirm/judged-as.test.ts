/** Whose rules a change's clicks follow (src/confirm/judged-as.ts): fails closed on odd records. */
import { describe, expect, it } from 'vitest';
import { approvalNeeded, judgedAs } from '../../src/confirm/judged-as.js';
import { catalog } from '../../src/operations/index.js';

const card = catalog.byId('schedule.confirm')!;
const byId = (id: string) => catalog.byId(id);
const ids = (facts: Record<string, unknown>) => judgedAs(card, facts, byId).map((o) => o.id);
const where = (facts: Record<string, unknown>) => ({ channelId: 'C1', account: null, facts });

describe('judgedAs', () => {
  it('a change is judged as itself unless its record names others', () => {
    expect(ids({})).toEqual(['schedule.confirm']);
    expect(ids({ judgedAs: ['server.rename'] })).toEqual(['server.rename']);
    expect(ids({ judgedAs: ['backup.create', 'backup.delete'] })).toEqual(['backup.create', 'backup.delete']);
  });

  it('an empty list, an unknown id or a non-string never judges it as less than itself', () => {
    expect(ids({ judgedAs: [] })).toEqual(['schedule.confirm']);
    expect(ids({ judgedAs: ['server.rename', 'no.such-op'] })).toEqual(['schedule.confirm', 'server.rename']);
    expect(ids({ judgedAs: [42] })).toEqual(['schedule.confirm']);
  });

  it('approval is needed when any operation it is judged as needs one', () => {
    const destroys = (o: { tier: string }) => o.tier === 'destroy';
    expect(approvalNeeded(card, where({ judgedAs: ['server.rename'] }), destroys, byId)).toBe(false);
    expect(approvalNeeded(card, where({ judgedAs: ['backup.create', 'backup.delete'] }), destroys, byId)).toBe(true);
    expect(approvalNeeded(card, where({}), destroys, byId)).toBe(true);
  });
});
