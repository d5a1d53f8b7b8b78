import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { OperationRecord, PostgresStore, Store, TransitionResult } from '../../src/store/index.js';
import { T0, newOp, postgresUrl, describeStores } from './helpers.js';

const confirmBy = (user: string, now = T0 + 1000) => ({
  from: ['pending' as const],
  to: 'confirmed' as const,
  now,
  requireUnexpired: true,
  patch: { confirmedBy: user, confirmedAt: now },
});

describeStores((t, backend) => {

  describe('transition', () => {
    it('pending → confirmed succeeds once; the second click learns who already confirmed', async () => {
      const { operations } = t.open(t.file());
      const { record } = await operations.create(newOp());

      const first = await operations.transition(record.id, confirmBy('U_BOB'));
      expect(first).toMatchObject({
        ok: true,
        record: { status: 'confirmed', confirmedBy: 'U_BOB', confirmedAt: T0 + 1000, updatedAt: T0 + 1000 },
      });

      const second = await operations.transition(record.id, confirmBy('U_CAROL', T0 + 2000));
      expect(second).toEqual({ ok: false, reason: 'wrong_status', record: first.ok && first.record });
      expect(second.record?.confirmedBy).toBe('U_BOB');
    });

    it('an undo window: sendAt is stored with the Confirm, and no requireDue claim wins before it; one of many does at it', async () => {
      const path = t.file();
      const a = t.open(path);
      const b = t.open(path);
      const { record } = await a.operations.create(newOp());
      const sendAt = T0 + 31_000;
      const confirmed = await a.operations.transition(record.id, { ...confirmBy('U_BOB'), patch: { confirmedBy: 'U_BOB', confirmedAt: T0 + 1000, sendAt } });
      expect(confirmed).toMatchObject({ ok: true, record: { status: 'confirmed', sendAt } });
      const claim = (now: number) => ({ from: ['confirmed' as const], to: 'running' as const, now, requireDue: true });
      expect(await b.operations.transition(record.id, claim(sendAt - 1))).toMatchObject({ ok: false, reason: 'wrong_status', record: { status: 'confirmed' } });
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).operations.transition(record.id, claim(sendAt))));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect((await a.operations.get(record.id))?.status).toBe('running');
    });

    it('unchangedSince: refused once the record moved after it was read, even back into a `from` status', async () => {
      const { operations } = t.open(t.file());
      const { record } = await operations.create(newOp());
      const failed = await operations.transition(record.id, { from: ['pending'], to: 'failed', now: T0 + 1000, patch: { errorCode: 'HYPERVISOR_SYNC_FAILED' } });
      const read = failed.ok ? failed.record : record;
      // A first retry claims it and fails again meanwhile.
      expect(await operations.transition(record.id, { from: ['failed'], to: 'running', now: T0 + 2000, unchangedSince: read.updatedAt })).toMatchObject({ ok: true });
      expect(await operations.transition(record.id, { from: ['running'], to: 'failed', now: T0 + 3000 })).toMatchObject({ ok: true });
      // The second click read it before all that: refused, though it is 'failed' again.
      expect(await operations.transition(record.id, { from: ['failed'], to: 'running', now: T0 + 4000, unchangedSince: read.updatedAt })).toMatchObject({
        ok: false,
        reason: 'wrong_status',
        record: { status: 'failed', updatedAt: T0 + 3000 },
      });
      expect(await operations.transition(record.id, { from: ['failed'], to: 'running', now: T0 + 5000, unchangedSince: T0 + 3000 })).toMatchObject({ ok: true });
    });

    it('exactly one of 20 concurrent callers on each of two connections wins', async () => {
      const path = t.file();
      const a = t.open(path);
      const b = t.open(path); // a second connection, as after a restart or in a second replica
      const { record } = await a.operations.create(newOp());

      const calls: Promise<TransitionResult>[] = [];
      for (let i = 0; i < 20; i++) {
        calls.push(a.operations.transition(record.id, confirmBy(`U_A${i}`)));
        calls.push(b.operations.transition(record.id, confirmBy(`U_B${i}`)));
      }
      const results = await Promise.all(calls);

      const winners = results.filter((r) => r.ok);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!.record!;
      for (const r of results.filter((x) => !x.ok)) {
        expect(r).toMatchObject({ ok: false, reason: 'wrong_status', record: { confirmedBy: winner.confirmedBy } });
      }
      expect(await b.operations.get(record.id)).toEqual(winner);
    });

    it('50 parallel claims on one record from several connections: exactly one winner', async () => {
      const path = t.file();
      // Three stores (pools) on one database, as three replicas; each pool may open many connections.
      const stores: Store[] = [t.open(path), t.open(path), t.open(path)];
      const { record } = await stores[0]!.operations.create(newOp());
      await Promise.all(stores.map((s) => s.operations.get(record.id))); // every pool connected and migrated

      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => stores[i % 3]!.operations.transition(record.id, confirmBy(`U_${i}`))),
      );
      const winners = results.filter((r) => r.ok);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!.record!;
      expect(results.filter((r) => !r.ok).map((r) => r.ok === false && r.reason)).toEqual(Array(49).fill('wrong_status'));
      for (const s of stores) expect(await s.operations.get(record.id)).toEqual(winner);
      if (backend === 'postgres') {
        // The claims really went over several server connections at once.
        const connections = stores.reduce((n, s) => n + (s as PostgresStore).pool.totalCount, 0);
        expect(connections).toBeGreaterThan(3);
      }
    });

    it('exactly one winner per record when threads with their own connections race', async () => {
      const path = t.file();
      const main = t.open(path);
      const ids: string[] = [];
      for (let i = 0; i < 200; i++) ids.push((await main.operations.create(newOp())).record.id);

      const barrier = new SharedArrayBuffer(4);
      const names = ['W1', 'W2', 'W3', 'W4'];
      const workers = names.map(
        (name, i) =>
          new Worker(new URL('./race-worker.mjs', import.meta.url), {
            workerData: {
              ...(backend === 'sqlite' ? { target: path } : { target: postgresUrl(), schema: path }),
              ids,
              offset: i * 50,
              name,
              now: T0 + 1000,
              barrier,
            },
          }),
      );
      type Done = { type: 'done'; wins: string[]; reasons: Record<string, number> };
      const message = (w: Worker, type: string) =>
        new Promise<Done>((resolve, reject) => {
          w.on('message', (m: { type: string }) => m.type === type && resolve(m as Done));
          w.on('error', reject);
        });
      const done = workers.map((w) => message(w, 'done'));
      try {
        await Promise.all(workers.map((w) => message(w, 'ready')));
        const flags = new Int32Array(barrier);
        Atomics.store(flags, 0, 1);
        Atomics.notify(flags, 0); // all threads start together
        const outcomes = await Promise.all(done);

        const allWins = outcomes.flatMap((o) => o.wins);
        expect([...allWins].sort()).toEqual([...ids].sort()); // every record won, none twice
        for (const o of outcomes) {
          expect(Object.keys(o.reasons).filter((k) => k !== 'wrong_status')).toEqual([]);
          expect(o.wins.length + (o.reasons.wrong_status ?? 0)).toBe(ids.length);
        }
        // The stored confirmer is the one caller that was told it won.
        const winnerOf = new Map<string, string>();
        outcomes.forEach((o, i) => o.wins.forEach((id) => winnerOf.set(id, names[i]!)));
        for (const id of ids) expect((await main.operations.get(id))?.confirmedBy).toBe(winnerOf.get(id));
      } finally {
        await Promise.all(workers.map((w) => w.terminate()));
      }
    });

    it('requireUnexpired refuses at and after expiresAt with reason "expired"', async () => {
      const { operations } = t.open(t.file());
      const { record } = await operations.create(newOp({ expiresAt: T0 + 60_000 }));

      const late = await operations.transition(record.id, confirmBy('U_BOB', T0 + 60_000));
      expect(late).toMatchObject({ ok: false, reason: 'expired', record: { status: 'pending', confirmedBy: null } });

      // Without requireUnexpired (e.g. a cancel) the same moment is fine.
      const cancel = await operations.transition(record.id, { from: ['pending'], to: 'cancelled', now: T0 + 60_000 });
      expect(cancel.ok).toBe(true);

      const { record: other } = await operations.create(newOp({ expiresAt: T0 + 60_000 }));
      expect((await operations.transition(other.id, confirmBy('U_BOB', T0 + 59_999))).ok).toBe(true);
    });

    it('a record already expired reports "expired"; an unknown id "not_found"', async () => {
      const { operations } = t.open(t.file());
      const { record } = await operations.create(newOp({ expiresAt: T0 }));
      await operations.expireDue(T0);
      expect(await operations.transition(record.id, confirmBy('U_BOB'))).toMatchObject({
        ok: false,
        reason: 'expired',
        record: { status: 'expired' },
      });
      expect(await operations.transition('op_aaaaaaaaaaaaaaaa', confirmBy('U_BOB'))).toEqual({
        ok: false,
        record: undefined,
        reason: 'not_found',
      });
    });

    it('walks the whole lifecycle; patch fields set, cleared with null, or kept when absent', async () => {
      const { operations } = t.open(t.file());
      const { record } = await operations.create(newOp({ sealedSecrets: 'v1.sealed' }));
      const step = async (r: Promise<TransitionResult>): Promise<OperationRecord> => {
        const out = await r;
        if (!out.ok) throw new Error(`refused: ${out.reason}`);
        return out.record;
      };

      const confirmed = await step(operations.transition(record.id, confirmBy('U_BOB')));
      expect(confirmed.sealedSecrets).toBe('v1.sealed');

      const running = await step(
        operations.transition(record.id, {
          from: ['confirmed'],
          to: 'running',
          now: T0 + 2000,
          patch: { sealedSecrets: null, errorMessage: 'scratch' },
        }),
      );
      expect(running).toMatchObject({ status: 'running', sealedSecrets: null, confirmedBy: 'U_BOB', errorMessage: 'scratch' });

      const done = await step(
        operations.transition(record.id, {
          from: ['running'],
          to: 'succeeded',
          now: T0 + 3000,
          patch: { result: { action: 'reinstall', status: 'in-progress', rootPassword: '[masked]' }, errorMessage: null },
        }),
      );
      expect(done).toMatchObject({
        status: 'succeeded',
        finishedAt: T0 + 3000,
        result: { action: 'reinstall', status: 'in-progress', rootPassword: '[masked]' },
        errorMessage: null,
        confirmedAt: T0 + 1000,
        updatedAt: T0 + 3000,
      });
      expect(await operations.get(record.id)).toEqual(done);
    });

    it('reaching a terminal status erases sealed secrets even if the caller forgot', async () => {
      const { operations } = t.open(t.file());
      const { record } = await operations.create(newOp({ sealedSecrets: 'v1.sealed' }));
      const r = await operations.transition(record.id, { from: ['pending'], to: 'cancelled', now: T0 + 5 });
      expect(r).toMatchObject({ ok: true, record: { status: 'cancelled', sealedSecrets: null, finishedAt: T0 + 5 } });

      const { record: failing } = await operations.create(newOp({ sealedSecrets: 'v1.sealed' }));
      const f = await operations.transition(failing.id, {
        from: ['pending', 'confirmed'],
        to: 'failed',
        now: T0 + 9,
        patch: { finishedAt: T0 + 8, errorCode: 'cloud.conflict', errorMessage: 'Server is locked' },
      });
      expect(f).toMatchObject({
        ok: true,
        record: { sealedSecrets: null, finishedAt: T0 + 8, errorCode: 'cloud.conflict', errorMessage: 'Server is locked' },
      });
    });

    it('refuses an empty `from` list', async () => {
      const { operations } = t.open(t.file());
      const { record } = await operations.create(newOp());
      await expect(operations.transition(record.id, { from: [], to: 'confirmed', now: T0 })).rejects.toThrow(/from/);
    });
  });

  describe('expireDue', () => {
    it('moves only due pending records, erasing their sealed secrets, and returns them', async () => {
      const { operations } = t.open(t.file());
      const due1 = (await operations.create(newOp({ expiresAt: T0 + 100, sealedSecrets: 'v1.one' }))).record;
      const due2 = (await operations.create(newOp({ expiresAt: T0 + 50 }))).record;
      const notYet = (await operations.create(newOp({ expiresAt: T0 + 101, sealedSecrets: 'v1.two' }))).record;
      const confirmed = (await operations.create(newOp({ expiresAt: T0 + 100, sealedSecrets: 'v1.three' }))).record;
      expect((await operations.transition(confirmed.id, confirmBy('U_BOB', T0 + 10))).ok).toBe(true);

      const expired = await operations.expireDue(T0 + 100);
      expect(expired.map((r) => r.id)).toEqual([due2.id, due1.id]);
      for (const r of expired) {
        expect(r).toMatchObject({ status: 'expired', sealedSecrets: null, updatedAt: T0 + 100, finishedAt: T0 + 100 });
        expect(await operations.get(r.id)).toEqual(r);
      }
      expect(await operations.get(notYet.id)).toMatchObject({ status: 'pending', sealedSecrets: 'v1.two' });
      expect(await operations.get(confirmed.id)).toMatchObject({ status: 'confirmed', sealedSecrets: 'v1.three' });
      expect(await operations.expireDue(T0 + 100)).toEqual([]);
    });
  });

  describe('listUnfinished', () => {
    it('lists records left confirmed or running, oldest first', async () => {
      const { operations } = t.open(t.file());
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await operations.create(newOp())).record.id);
      const [pending, confirmed, running, succeeded, cancelled] = ids as [string, string, string, string, string];
      await operations.transition(confirmed, confirmBy('U'));
      await operations.transition(running, confirmBy('U'));
      await operations.transition(running, { from: ['confirmed'], to: 'running', now: T0 + 2 });
      await operations.transition(succeeded, confirmBy('U'));
      await operations.transition(succeeded, { from: ['confirmed'], to: 'running', now: T0 + 2 });
      await operations.transition(succeeded, { from: ['running'], to: 'succeeded', now: T0 + 3 });
      await operations.transition(cancelled, { from: ['pending'], to: 'cancelled', now: T0 + 3 });

      const unfinished = await operations.listUnfinished();
      expect(unfinished.map((r) => [r.id, r.status])).toEqual([
        [confirmed, 'confirmed'],
        [running, 'running'],
      ]);
      expect(pending).toBeDefined();
    });
  });
});
