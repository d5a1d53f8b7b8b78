import { describe, expect, it } from 'vitest';
import { isOperationId } from '../../src/store/index.js';
import { T0, fixedClock, newOp, describeStores } from './helpers.js';

describeStores((t) => {

  describe('create and get', () => {
    it('round-trips every field, JSON included', async () => {
      const { operations } = t.open(t.file());
      const { record, created } = await operations.create(
        newOp({ sealedSecrets: 'v1.opaque', dedupeKey: 'trigger-1', facts: { hostname: 'web-1.example.net', price: 0.5 } }),
      );
      expect(created).toBe(true);
      expect(isOperationId(record.id)).toBe(true);
      expect(record).toEqual({
        id: record.id,
        opId: 'server.reinstall',
        args: { server: 'srv-123', image: 'ubuntu-24.04', tags: ['a', 'b'], nested: { n: 1, ok: true } },
        facts: { hostname: 'web-1.example.net', price: 0.5 },
        sealedSecrets: 'v1.opaque',
        status: 'pending',
        requestedBy: 'U_ALICE',
        teamId: 'T_ACME',
        channelId: 'C_OPS',
        messageTs: null,
        dedupeKey: 'trigger-1',
        createdAt: T0,
        updatedAt: T0,
        expiresAt: T0 + 300_000,
        confirmedBy: null,
        confirmedAt: null,
        approvedBy: null,
        approvedAt: null,
        finishedAt: null,
        result: null,
        errorCode: null,
        errorMessage: null,
        account: null,
        sendAt: null,
      });
      expect(await operations.get(record.id)).toEqual(record);
    });

    it('remembers the account it acts on, through transitions, listings and a reopen', async () => {
      const path = t.file();
      const first = t.open(path);
      const { record } = await first.operations.create(newOp({ account: 'acme-staging' }));
      const bare = await first.operations.create(newOp({ account: null }));
      expect(record.account).toBe('acme-staging');
      expect(bare.record.account).toBeNull(); // the default account
      expect((await first.operations.create(newOp())).record.account).toBeNull();
      const confirmed = await first.operations.transition(record.id, { from: ['pending'], to: 'confirmed', now: T0 + 1 });
      expect(confirmed.ok && confirmed.record.account).toBe('acme-staging');
      expect((await first.operations.expireDue(T0 + 400_000)).map((r) => r.account)).toEqual([null, null]);
      await first.close();

      const second = t.open(path);
      expect(await second.operations.get(record.id)).toMatchObject({ account: 'acme-staging', status: 'confirmed' });
      expect(await second.operations.get(bare.record.id)).toMatchObject({ account: null });
      expect((await second.operations.listUnfinished()).map((r) => r.account)).toEqual(['acme-staging']);
      expect((await second.operations.listRecent({ limit: 10 })).map((r) => r.account)).toEqual([null, null, 'acme-staging']);
    });

    it('gives each record a fresh id and answers undefined for an unknown one', async () => {
      const { operations } = t.open(t.file());
      const a = await operations.create(newOp());
      const b = await operations.create(newOp());
      expect(a.record.id).not.toBe(b.record.id);
      expect(await operations.get('op_aaaaaaaaaaaaaaaa')).toBeUndefined();
    });

    it('a repeated dedupeKey returns the existing record, created=false, and no second row', async () => {
      const path = t.file();
      const { operations } = t.open(path);
      const first = await operations.create(newOp({ dedupeKey: 'trigger-42' }));
      const again = await operations.create(newOp({ dedupeKey: 'trigger-42', args: { other: true } }));
      expect(again.created).toBe(false);
      expect(again.record).toEqual(first.record);
      // A second connection (another replica) gets the same answer.
      const other = t.open(path);
      const third = await other.operations.create(newOp({ dedupeKey: 'trigger-42' }));
      expect(third).toEqual({ record: first.record, created: false });
      expect(await t.count(path, 'operations')).toBe(1);
    });

    it('byDedupeKey finds the record made with that key, from any connection, and nothing for another key', async () => {
      const path = t.file();
      const { operations } = t.open(path);
      const made = await operations.create(newOp({ dedupeKey: 'sched-confirm:sch_0123456789' }));
      expect(await t.open(path).operations.byDedupeKey('sched-confirm:sch_0123456789')).toEqual(made.record);
      expect(await operations.byDedupeKey('sched-confirm:sch_9999999999')).toBeUndefined();
    });

    it('records without a dedupeKey never collide', async () => {
      const path = t.file();
      const { operations } = t.open(path);
      await operations.create(newOp());
      await operations.create(newOp({ dedupeKey: null }));
      expect(await t.count(path, 'operations')).toBe(2);
    });

    it('refuses args that are not a plain object, and bad times', async () => {
      const { operations } = t.open(t.file());
      await expect(operations.create(newOp({ args: [] as unknown as Record<string, unknown> }))).rejects.toThrow(
        /args must be a plain object/,
      );
      await expect(operations.create(newOp({ expiresAt: 1.5 }))).rejects.toThrow(/expiresAt must be an integer/);
      await expect(operations.create(newOp({ channelId: '' }))).rejects.toThrow(/channelId/);
      // An empty name would read as an account: the default one is null.
      await expect(operations.create(newOp({ account: '' }))).rejects.toThrow(/account must be a non-empty string/);
      await expect(operations.create(newOp({ account: 7 as never }))).rejects.toThrow(/account must be a non-empty string/);
    });
  });

  describe('setMessage', () => {
    it('records where the status message was posted', async () => {
      const clock = fixedClock();
      const { operations } = t.open(t.file(), clock);
      const { record } = await operations.create(newOp());
      clock.set(T0 + 1500);
      await operations.setMessage(record.id, 'D_DM', '1732276800.000100');
      expect(await operations.get(record.id)).toMatchObject({
        channelId: 'D_DM',
        messageTs: '1732276800.000100',
        updatedAt: T0 + 1500,
      });
    });

    it('rejects an unknown id', async () => {
      const { operations } = t.open(t.file());
      await expect(operations.setMessage('op_aaaaaaaaaaaaaaaa', 'C', '1.2')).rejects.toThrow(/No operation/);
    });
  });

  describe('listings', () => {
    it('listRecent: newest first, limited, optionally by requester', async () => {
      const clock = fixedClock();
      const { operations } = t.open(t.file(), clock);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        clock.set(T0 + i * 1000);
        const { record } = await operations.create(newOp({ requestedBy: i % 2 ? 'U_BOB' : 'U_ALICE' }));
        ids.push(record.id);
      }
      // Same millisecond: insertion order still decides.
      const { record: last } = await operations.create(newOp({ requestedBy: 'U_BOB' }));
      ids.push(last.id);

      expect((await operations.listRecent({ limit: 3 })).map((r) => r.id)).toEqual([ids[5], ids[4], ids[3]]);
      expect((await operations.listRecent({ limit: 10, requestedBy: 'U_BOB' })).map((r) => r.id)).toEqual([
        ids[5],
        ids[3],
        ids[1],
      ]);
      expect(await operations.listRecent({ limit: 0 })).toEqual([]);
      expect(await operations.listRecent({ limit: 10, requestedBy: 'U_NOBODY' })).toEqual([]);
    });

    it('listDuring: one channel, created within the bounds (inclusive), oldest first, limited', async () => {
      const clock = fixedClock();
      const { operations } = t.open(t.file(), clock);
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        clock.set(T0 + i * 1000);
        const { record } = await operations.create(newOp({ channelId: i % 3 === 2 ? 'C_OTHER' : 'C_OPS' }));
        ids.push(record.id);
      }
      // C_OPS: 0, 1, 3, 4 (at T0, +1s, +3s, +4s); C_OTHER: 2, 5.
      expect((await operations.listDuring({ channelId: 'C_OPS', from: T0 + 1000, until: T0 + 4000, limit: 10 })).map((r) => r.id)).toEqual([ids[1], ids[3], ids[4]]);
      expect((await operations.listDuring({ channelId: 'C_OPS', from: T0, until: T0 + 9000, limit: 2 })).map((r) => r.id)).toEqual([ids[0], ids[1]]);
      expect((await operations.listDuring({ channelId: 'C_OTHER', from: T0, until: T0 + 9000, limit: 10 })).map((r) => r.id)).toEqual([ids[2], ids[5]]);
      expect(await operations.listDuring({ channelId: 'C_OPS', from: T0, until: T0 + 9000, limit: 0 })).toEqual([]);
    });
  });

  describe('restart', () => {
    it('close and reopen the same file keeps everything', async () => {
      const path = t.file();
      const first = t.open(path);
      const { record } = await first.operations.create(newOp({ dedupeKey: 'trigger-7', sealedSecrets: 'v1.x' }));
      await first.operations.setMessage(record.id, 'C_OPS', '111.222');
      const confirmed = await first.operations.transition(record.id, {
        from: ['pending'],
        to: 'confirmed',
        now: T0 + 10,
        patch: { confirmedBy: 'U_BOB', confirmedAt: T0 + 10 },
      });
      const other = await first.operations.create(newOp());
      await first.close();
      await first.close(); // idempotent

      const second = t.open(path);
      expect(confirmed.ok).toBe(true);
      expect(await second.operations.get(record.id)).toEqual(confirmed.record);
      expect(await second.operations.get(other.record.id)).toEqual(other.record);
      expect((await second.operations.create(newOp({ dedupeKey: 'trigger-7' }))).created).toBe(false);
      expect((await second.operations.listUnfinished()).map((r) => r.id)).toEqual([record.id]);
    });

    it('a closed store refuses further use', async () => {
      const store = t.open(t.file());
      await store.close();
      await expect(store.operations.get('op_aaaaaaaaaaaaaaaa')).rejects.toThrow(/not open/);
    });
  });
});
