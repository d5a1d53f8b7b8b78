/** Workflow steps (migration 12) on both backends: one row per execution, one completion claimed, leases as for watches. */
import { expect, it } from 'vitest';
import { T0, describeStores } from './helpers.js';

describeStores((t) => {
  const LEASE = 60_000;
  const step = (id: string) => ({ executionId: id, callbackId: 'backup_create', workflow: 'Wx1', channelId: 'C1', requestedBy: 'U1', inputs: { server: '101', name: 'a' } });

  it('begins a step once: a retried delivery, here or on another replica, finds it taken', async () => {
    const path = t.file();
    const [a, b] = [t.open(path), t.open(path)];
    const first = await a.steps.begin(step('Fx1'), 'A', T0, LEASE);
    expect(first.created).toBe(true);
    expect(first.record).toMatchObject({ executionId: 'Fx1', status: 'running', inputs: { server: '101', name: 'a' }, leaseOwner: 'A', leaseUntil: T0 + LEASE });
    const again = await b.steps.begin(step('Fx1'), 'B', T0 + 1, LEASE);
    expect(again.created).toBe(false);
    expect(again.record.leaseOwner).toBe('A');
    const raced = await Promise.all(Array.from({ length: 6 }, (_, i) => [a, b][i % 2]!.steps.begin(step('Fx2'), `R${i}`, T0, LEASE)));
    expect(raced.filter((r) => r.created)).toHaveLength(1);
  });

  it('a step just begun is not due while its lease lasts, even to its own replica (whose driver would start it twice)', async () => {
    const a = t.open(t.file());
    await a.steps.begin(step('Fx6'), 'A', T0, LEASE);
    expect(await a.steps.claimDue('A', T0 + 1, LEASE, 10)).toEqual([]);
    expect(await a.steps.claimDue('A', T0 + LEASE - 1, LEASE, 10)).toEqual([]);
    expect((await a.steps.claimDue('B', T0 + LEASE, LEASE, 10)).map((s) => s.executionId)).toEqual(['Fx6']); // left by a replica that stopped
  });

  it('only the lease holder moves a step; its one completion is claimed once, then done', async () => {
    const path = t.file();
    const [a, b] = [t.open(path), t.open(path)];
    await a.steps.begin(step('Fx3'), 'A', T0, LEASE);
    expect(await b.steps.setOperation('Fx3', 'op1', 'B', T0)).toBeUndefined();
    expect((await a.steps.setOperation('Fx3', 'op1', 'A', T0))?.operationId).toBe('op1');
    const outcome = { outcome: 'success' as const, outputs: { backup_uuid: 'u' } };
    expect(await b.steps.settle('Fx3', 'B', T0, outcome, LEASE)).toBeUndefined();
    const settled = await Promise.all([a.steps.settle('Fx3', 'A', T0, outcome, LEASE), a.steps.settle('Fx3', 'A', T0, outcome, LEASE)]);
    expect(settled.filter(Boolean)).toHaveLength(1);
    expect(settled.find(Boolean)).toMatchObject({ status: 'completing', outcome: 'success', outputs: { backup_uuid: 'u' } });
    expect((await a.steps.done('Fx3', 'A', T0))?.status).toBe('done');
    expect(await a.steps.done('Fx3', 'A', T0)).toBeUndefined();
    expect(await b.steps.claimDue('B', T0 + 10 * LEASE, LEASE, 10)).toEqual([]); // done is never claimed again
  });

  it('claims due steps whose lease is free or ended, one replica each; `later` lets go until the next look', async () => {
    const path = t.file();
    const [a, b] = [t.open(path), t.open(path)];
    await a.steps.begin(step('Fx4'), 'A', T0, LEASE);
    expect(await b.steps.claimDue('B', T0 + 1, LEASE, 10)).toEqual([]); // A holds it
    const taken = await Promise.all([a.steps.claimDue('A2', T0 + LEASE, LEASE, 10), b.steps.claimDue('B', T0 + LEASE, LEASE, 10)]);
    expect(taken.flat().map((s) => s.executionId)).toEqual(['Fx4']);
    const holder = taken[0]!.length ? 'A2' : 'B';
    expect((await a.steps.later('Fx4', holder, T0 + LEASE, T0 + LEASE + 10_000))?.leaseOwner).toBeNull();
    expect(await b.steps.claimDue('B', T0 + LEASE + 9_999, LEASE, 10)).toEqual([]); // not due yet
    expect((await b.steps.claimDue('B', T0 + LEASE + 10_000, LEASE, 10)).map((s) => s.executionId)).toEqual(['Fx4']);
  });

  it('a completion claimed by a replica that died is claimed again once its lease ends', async () => {
    const path = t.file();
    const [a, b] = [t.open(path), t.open(path)];
    await a.steps.begin(step('Fx5'), 'A', T0, LEASE);
    await a.steps.settle('Fx5', 'A', T0, { outcome: 'error', error: 'Cancelled.' }, LEASE);
    expect(await b.steps.claimDue('B', T0 + 1, LEASE, 10)).toEqual([]);
    const [again] = await b.steps.claimDue('B', T0 + LEASE, LEASE, 10);
    expect(again).toMatchObject({ executionId: 'Fx5', status: 'completing', error: 'Cancelled.', leaseOwner: 'B' });
    expect((await b.steps.done('Fx5', 'B', T0 + LEASE))?.status).toBe('done');
  });
});
