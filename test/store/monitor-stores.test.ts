/** The monitor's subscription and alert stores (issue 13), on both backends. */
import { describe, expect, it } from 'vitest';
import type { NewAlert, NewSubscription, Store, SubscriptionRecord } from '../../src/store/index.js';
import { ALERT_ID_PATTERN, SUBSCRIPTION_ID_PATTERN } from '../../src/store/index.js';
import { T0, describeStores } from './helpers.js';

const newSub = (over: Partial<NewSubscription> = {}): NewSubscription => ({
  channelId: 'C_OPS',
  account: null,
  kind: 'server',
  resource: 'srv-123',
  params: {},
  createdBy: 'U_ALICE',
  createdAt: T0,
  ...over,
});

describeStores((t) => {

  /** Two stores on one database: two connections (pools), as two replicas. */
  const twoStores = async (): Promise<[Store, Store, string]> => {
    const path = t.file();
    const a = t.open(path);
    const b = t.open(path);
    await Promise.all([a.subscriptions.listActive(), b.subscriptions.listActive()]); // both migrated and connected
    return [a, b, path];
  };

  describe('subscriptions', () => {
    it('adds one and reads it back, across a reopen', async () => {
      const path = t.file();
      const store = t.open(path);
      const { record, created } = await store.subscriptions.add(newSub({ account: 'acme-staging', kind: 'usage', resource: '', params: { cpu: 90, ram: 80 } }));
      expect(created).toBe(true);
      expect(record.id).toMatch(SUBSCRIPTION_ID_PATTERN);
      expect(record).toEqual({
        id: record.id,
        channelId: 'C_OPS',
        account: 'acme-staging',
        kind: 'usage',
        resource: '',
        params: { cpu: 90, ram: 80 },
        createdBy: 'U_ALICE',
        createdAt: T0,
        mutedUntil: null,
        removedAt: null,
        lastRun: null,
        runOwed: null,
      } satisfies SubscriptionRecord);
      await store.close();
      const again = t.open(path);
      expect(await again.subscriptions.get(record.id)).toEqual(record);
      expect(await again.subscriptions.get('sub_aaaaaaaaaa')).toBeUndefined();
      expect(await again.subscriptions.get('not an id')).toBeUndefined();
    });

    it('add returns the active duplicate (params unchanged); another account, kind or channel is a new one; removed ones do not count', async () => {
      const path = t.file();
      const store = t.open(path);
      const first = await store.subscriptions.add(newSub({ params: { a: 1 } }));
      const again = await store.subscriptions.add(newSub({ params: { a: 2 }, createdBy: 'U_BOB', createdAt: T0 + 5 }));
      expect(again).toEqual({ record: first.record, created: false });
      expect((await store.subscriptions.add(newSub({ account: 'acme-staging' }))).created).toBe(true);
      expect((await store.subscriptions.add(newSub({ account: 'acme-staging' }))).created).toBe(false);
      expect((await store.subscriptions.add(newSub({ kind: 'worker' }))).created).toBe(true);
      expect((await store.subscriptions.add(newSub({ channelId: 'C_DEV' }))).created).toBe(true);

      await store.subscriptions.remove(first.record.id, T0 + 10);
      const fresh = await store.subscriptions.add(newSub({ createdAt: T0 + 20 }));
      expect(fresh.created).toBe(true);
      expect(fresh.record.id).not.toBe(first.record.id);
      expect(await t.count(path, 'subscriptions')).toBe(5);
      expect((await store.subscriptions.listActive()).map((s) => s.id)).not.toContain(first.record.id);
    });

    it('concurrent adds of one target on two connections create exactly one', async () => {
      const [a, b, path] = await twoStores();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).subscriptions.add(newSub({ createdBy: `U_${i}` }))));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.record.id)).size).toBe(1);
      expect(await t.count(path, 'subscriptions')).toBe(1);
    });

    it('lists the active ones, oldest first (ties by insertion), per channel and overall', async () => {
      const store = t.open(t.file());
      const s1 = (await store.subscriptions.add(newSub({ resource: 'srv-1', createdAt: T0 + 2 }))).record;
      const s2 = (await store.subscriptions.add(newSub({ resource: 'srv-2', createdAt: T0 }))).record;
      const s3 = (await store.subscriptions.add(newSub({ resource: 'srv-3', createdAt: T0 }))).record;
      const s4 = (await store.subscriptions.add(newSub({ channelId: 'C_DEV', kind: 'digest', resource: '', params: { at: '09:00', tz: 'Europe/Berlin' } }))).record;
      await store.subscriptions.remove(s3.id, T0 + 3);
      expect((await store.subscriptions.listForChannel('C_OPS')).map((s) => s.id)).toEqual([s2.id, s1.id]);
      expect((await store.subscriptions.listForChannel('C_DEV')).map((s) => s.id)).toEqual([s4.id]);
      expect(await store.subscriptions.listForChannel('C_NONE')).toEqual([]);
      expect((await store.subscriptions.listActive()).map((s) => s.id)).toEqual([s2.id, s4.id, s1.id]);
    });

    it('remove and mute act on active ones only', async () => {
      const store = t.open(t.file());
      const { record } = await store.subscriptions.add(newSub());
      expect(await store.subscriptions.mute(record.id, T0 + 3_600_000)).toEqual({ ...record, mutedUntil: T0 + 3_600_000 });
      expect(await store.subscriptions.mute(record.id, null)).toEqual(record);
      expect(await store.subscriptions.remove(record.id, T0 + 9)).toEqual({ ...record, removedAt: T0 + 9 });
      expect(await store.subscriptions.remove(record.id, T0 + 10)).toBeUndefined();
      expect(await store.subscriptions.mute(record.id, T0 + 1)).toBeUndefined();
      expect(await store.subscriptions.get(record.id)).toEqual({ ...record, removedAt: T0 + 9 });
      expect(await store.subscriptions.remove('sub_aaaaaaaaaa', T0)).toBeUndefined();
      expect(await store.subscriptions.mute('sub_aaaaaaaaaa', null)).toBeUndefined();
    });

    it('claimRun: exactly one of many concurrent callers per day, on two connections', async () => {
      const [a, b] = await twoStores();
      const { record } = await a.subscriptions.add(newSub({ kind: 'digest', resource: '', params: { at: '09:00', tz: 'UTC' } }));
      const race = async (day: string) =>
        (await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).subscriptions.claimRun(record.id, day)))).filter(Boolean).length;
      expect(await race('2026-11-22')).toBe(1);
      expect(await race('2026-11-22')).toBe(0);
      expect((await b.subscriptions.get(record.id))?.lastRun).toBe('2026-11-22');
      expect(await race('2026-11-23')).toBe(1);
      expect(await a.subscriptions.claimRun('sub_aaaaaaaaaa', '2026-11-24')).toBe(false);
      await a.subscriptions.remove(record.id, T0);
      expect(await a.subscriptions.claimRun(record.id, '2026-11-24')).toBe(false);
    });

    it("claimRun with a try: the day's digest is owed (unclear, one try) until a try settles it; a new day starts afresh", async () => {
      const path = t.file();
      const store = t.open(path);
      const { record } = await store.subscriptions.add(newSub({ kind: 'digest', resource: '', params: { at: '09:00', tz: 'UTC' } }));
      expect(await store.subscriptions.claimRun(record.id, '2026-11-22', { now: T0, until: T0 + 600_000 })).toBe(true);
      const owed = { outcome: 'unclear', tries: 1, nextAt: T0 + 600_000, since: T0 };
      expect(await t.open(path).subscriptions.get(record.id)).toEqual({ ...record, lastRun: '2026-11-22', runOwed: owed });
      expect((await store.subscriptions.listActive())[0]?.runOwed).toEqual(owed);
      // Its post definitely did not land: owed as failed, due again later.
      expect(await store.subscriptions.settleRun(record.id, '2026-11-22', 1, { outcome: 'failed', nextAt: T0 + 120_000 })).toBe(true);
      expect((await store.subscriptions.get(record.id))?.runOwed).toEqual({ ...owed, outcome: 'failed', nextAt: T0 + 120_000 });
      // A settle of a try that is not the latest, or of another day, changes nothing.
      expect(await store.subscriptions.settleRun(record.id, '2026-11-22', 2, null)).toBe(false);
      expect(await store.subscriptions.settleRun(record.id, '2026-11-21', 1, null)).toBe(false);
      expect(await store.subscriptions.settleRun(record.id, '2026-11-22', 1, null)).toBe(true);
      expect((await store.subscriptions.get(record.id))?.runOwed).toBeNull();
      expect(await store.subscriptions.settleRun(record.id, '2026-11-22', 1, null)).toBe(false); // nothing owed any more

      // The next day's claim starts afresh; one without a try (a digest made after its time) owes nothing.
      expect(await store.subscriptions.claimRun(record.id, '2026-11-23', { now: T0 + 86_400_000, until: T0 + 86_400_000 + 600_000 })).toBe(true);
      expect((await store.subscriptions.get(record.id))?.runOwed).toEqual({ outcome: 'unclear', tries: 1, nextAt: T0 + 86_400_000 + 600_000, since: T0 + 86_400_000 });
      expect(await store.subscriptions.claimRun(record.id, '2026-11-24')).toBe(true);
      expect(await store.subscriptions.get(record.id)).toEqual({ ...record, lastRun: '2026-11-24', runOwed: null });
    });

    it('retryRun: one caller per try, on two connections; only when due, as seen, on its day, while active', async () => {
      const [a, b] = await twoStores();
      const { record } = await a.subscriptions.add(newSub({ kind: 'digest', resource: '', params: { at: '09:00', tz: 'UTC' } }));
      const day = '2026-11-22';
      await a.subscriptions.claimRun(record.id, day, { now: T0, until: T0 + 600_000 });
      await a.subscriptions.settleRun(record.id, day, 1, { outcome: 'failed', nextAt: T0 + 120_000 });
      const seen = { outcome: 'failed', tries: 1 } as const;
      expect(await a.subscriptions.retryRun(record.id, day, seen, T0 + 119_999, T0 + 720_000)).toBe(false); // not due yet
      expect(await a.subscriptions.retryRun(record.id, day, { outcome: 'unclear', tries: 1 }, T0 + 120_000, T0 + 720_000)).toBe(false);
      expect(await a.subscriptions.retryRun(record.id, '2026-11-23', seen, T0 + 120_000, T0 + 720_000)).toBe(false);
      const race = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).subscriptions.retryRun(record.id, day, seen, T0 + 120_000, T0 + 720_000)));
      expect(race.filter(Boolean)).toHaveLength(1);
      // The try runs: unclear until it settles (a replica stopped mid-post leaves it to be looked for).
      expect((await b.subscriptions.get(record.id))?.runOwed).toEqual({ outcome: 'unclear', tries: 2, nextAt: T0 + 720_000, since: T0 });
      await a.subscriptions.remove(record.id, T0 + 800_000);
      expect(await a.subscriptions.retryRun(record.id, day, { outcome: 'unclear', tries: 2 }, T0 + 800_000, T0 + 900_000)).toBe(false);
    });

    it('refuses bad input', async () => {
      const store = t.open(t.file());
      const add = (over: Record<string, unknown>) => store.subscriptions.add(newSub(over as Partial<NewSubscription>));
      await expect(add({ kind: 'disk' })).rejects.toThrow(/kind must be one of server, worker, usage, invoices, digest/);
      await expect(add({ channelId: '' })).rejects.toThrow(/channelId must be a non-empty string/);
      await expect(add({ createdBy: undefined })).rejects.toThrow(/createdBy must be a non-empty string/);
      await expect(add({ resource: '' })).rejects.toThrow(/resource must be a non-empty string/);
      await expect(add({ kind: 'invoices', resource: 'srv-1' })).rejects.toThrow(/resource must be '' for a invoices subscription/);
      await expect(add({ account: '' })).rejects.toThrow(/account must be a non-empty string/);
      await expect(add({ params: [1] })).rejects.toThrow(/params must be a plain object/);
      await expect(add({ createdAt: 1.5 })).rejects.toThrow(/createdAt must be an integer/);
      const { record } = await store.subscriptions.add(newSub());
      await expect(store.subscriptions.claimRun(record.id, '22.11.2026')).rejects.toThrow(/day must be a local date/);
      await expect(store.subscriptions.claimRun(record.id, '2026-11-22', { now: T0, until: 1.5 })).rejects.toThrow(/until must be an integer/);
      await expect(store.subscriptions.retryRun(record.id, '2026-11-22', { outcome: 'lost' as 'failed', tries: 1 }, T0, T0 + 1)).rejects.toThrow(/outcome must be unclear or failed/);
      await expect(store.subscriptions.settleRun(record.id, '2026-11-22', 1, { outcome: 'failed', nextAt: Number.NaN })).rejects.toThrow(/nextAt must be an integer/);
      await expect(store.subscriptions.mute(record.id, Number.NaN)).rejects.toThrow(/until must be an integer/);
      await expect(store.subscriptions.remove(record.id, undefined as unknown as number)).rejects.toThrow(/now must be an integer/);
      expect(await store.subscriptions.listActive()).toEqual([record]);
    });
  });

  describe('alerts', () => {
    const setup = async (store: Store) => (await store.subscriptions.add(newSub())).record.id;
    const newAlert = (subscriptionId: string, over: Partial<NewAlert> = {}): NewAlert => ({
      subscriptionId,
      channelId: 'C_OPS',
      condition: 'power-off',
      startedAt: T0,
      detail: { status: 'off', server: 'srv-123' },
      ...over,
    });

    it('opens one per firing condition, remembers its message, and returns the firing one again', async () => {
      const path = t.file();
      const store = t.open(path);
      const sub = await setup(store);
      const { record, created } = await store.alerts.open(newAlert(sub));
      expect(created).toBe(true);
      expect(record.id).toMatch(ALERT_ID_PATTERN);
      expect(record).toEqual({
        id: record.id,
        subscriptionId: sub,
        channelId: 'C_OPS',
        condition: 'power-off',
        status: 'firing',
        messageTs: null,
        startedAt: T0,
        resolvedAt: null,
        detail: { status: 'off', server: 'srv-123' },
      });
      await store.alerts.setMessage(record.id, '1700000000.000100');
      const again = await store.alerts.open(newAlert(sub, { startedAt: T0 + 60_000, detail: { other: true } }));
      expect(again).toEqual({ record: { ...record, messageTs: '1700000000.000100' }, created: false });
      const cpu = await store.alerts.open(newAlert(sub, { condition: 'cpu' }));
      expect(cpu.created).toBe(true);
      await store.close();
      expect((await t.open(path).alerts.listFiring(sub)).map((a) => a.id)).toEqual([record.id, cpu.record.id]);
    });

    it('concurrent opens of one condition on two connections create exactly one', async () => {
      const [a, b, path] = await twoStores();
      const sub = await setup(a);
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).alerts.open(newAlert(sub, { startedAt: T0 + i }))));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.record.id)).size).toBe(1);
      expect(await t.count(path, 'alerts')).toBe(1);
    });

    it('resolve is a compare-and-set firing → resolved, merging the detail; then the condition may fire anew', async () => {
      const [a, b] = await twoStores();
      const sub = await setup(a);
      const { record } = await a.alerts.open(newAlert(sub));
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).alerts.resolve(record.id, T0 + 100 + i, { status: 'running', by: i })),
      );
      const won = results.filter((r) => r !== undefined);
      expect(won).toHaveLength(1);
      const by = (won[0]!.detail as { by: number }).by;
      expect(won[0]).toEqual({ ...record, status: 'resolved', resolvedAt: T0 + 100 + by, detail: { status: 'running', server: 'srv-123', by } });
      expect(await a.alerts.resolve(record.id, T0 + 200)).toBeUndefined();
      expect(await a.alerts.listFiring(sub)).toEqual([]);

      const next = await b.alerts.open(newAlert(sub, { startedAt: T0 + 300 }));
      expect(next.created).toBe(true);
      expect(next.record.id).not.toBe(record.id);
      // Without a detail, resolve keeps the old one.
      expect((await a.alerts.resolve(next.record.id, T0 + 400))?.detail).toEqual({ status: 'off', server: 'srv-123' });
      expect(await a.alerts.resolve('alt_aaaaaaaaaa', T0)).toBeUndefined();
    });

    it('listFiring per subscription or all; listSince: started or resolved since, newest event first, limited', async () => {
      const store = t.open(t.file());
      const s1 = await setup(store);
      const s2 = (await store.subscriptions.add(newSub({ kind: 'invoices', resource: '', channelId: 'C_DEV' }))).record.id;
      const old = (await store.alerts.open(newAlert(s1, { condition: 'cpu', startedAt: T0 - 10_000 }))).record;
      const stale = (await store.alerts.open(newAlert(s1, { condition: 'ram', startedAt: T0 - 20_000 }))).record;
      const a1 = (await store.alerts.open(newAlert(s1, { startedAt: T0 + 10 }))).record;
      const a2 = (await store.alerts.open(newAlert(s2, { channelId: 'C_DEV', condition: 'invoice:42', startedAt: T0 + 5 }))).record;
      await store.alerts.resolve(old.id, T0 + 20);
      await store.alerts.resolve(stale.id, T0 - 15_000);

      expect((await store.alerts.listFiring()).map((a) => a.id)).toEqual([a2.id, a1.id]);
      expect((await store.alerts.listFiring(s1)).map((a) => a.id)).toEqual([a1.id]);
      expect(await store.alerts.listFiring('sub_aaaaaaaaaa')).toEqual([]);
      expect((await store.alerts.listSince('C_OPS', T0, 10)).map((a) => a.id)).toEqual([old.id, a1.id]);
      expect((await store.alerts.listSince('C_OPS', T0, 1)).map((a) => a.id)).toEqual([old.id]);
      expect((await store.alerts.listSince('C_OPS', T0 - 30_000, 10)).map((a) => a.id)).toEqual([old.id, a1.id, stale.id]);
      expect((await store.alerts.listSince('C_DEV', T0, 10)).map((a) => a.id)).toEqual([a2.id]);
    });

    it('countSince: every alert of a channel that started or resolved since, per subscription and condition, with no limit', async () => {
      const store = t.open(t.file());
      const s1 = await setup(store);
      const s2 = (await store.subscriptions.add(newSub({ kind: 'worker', resource: 'uuid-1' }))).record.id;
      const dev = (await store.subscriptions.add(newSub({ channelId: 'C_DEV' }))).record.id;
      // 600 incidents of s1 (more than listSince ever gives), two of s2, one long one resolved
      // since, one over before `since`, and one in another channel.
      for (let i = 0; i < 600; i++) await store.alerts.resolve((await store.alerts.open(newAlert(s1, { startedAt: T0 + i }))).record.id, T0 + i + 1);
      for (let i = 0; i < 2; i++) await store.alerts.resolve((await store.alerts.open(newAlert(s2, { condition: 'failed', startedAt: T0 + i }))).record.id, T0 + i + 1);
      await store.alerts.resolve((await store.alerts.open(newAlert(s2, { condition: 'building', startedAt: T0 - 50_000 }))).record.id, T0 + 5);
      await store.alerts.resolve((await store.alerts.open(newAlert(s2, { condition: 'stale', startedAt: T0 - 50_000 }))).record.id, T0 - 40_000);
      await store.alerts.open(newAlert(dev, { channelId: 'C_DEV', startedAt: T0 }));
      const counted = await store.alerts.countSince('C_OPS', T0);
      const key = (c: { subscriptionId: string; condition: string }) => `${c.subscriptionId}|${c.condition}`;
      expect([...counted].sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
        [
          { subscriptionId: s1, condition: 'power-off', count: 600 },
          { subscriptionId: s2, condition: 'building', count: 1 },
          { subscriptionId: s2, condition: 'failed', count: 2 },
        ].sort((a, b) => key(a).localeCompare(key(b))),
      );
      expect(await store.alerts.countSince('C_OPS', T0 + 1_000)).toEqual([]);
      expect(await store.alerts.countSince('C_DEV', T0)).toEqual([{ subscriptionId: dev, condition: 'power-off', count: 1 }]);
      await expect(store.alerts.countSince('', T0)).rejects.toThrow(/channelId must be a non-empty string/);
      await expect(store.alerts.countSince('C_OPS', 1.5)).rejects.toThrow(/since must be an integer/);
    });

    it('resolve marks the closing edit owed when the alert has a message; editShown clears it; kept across a reopen', async () => {
      const path = t.file();
      const store = t.open(path);
      const sub = await setup(store);
      const unposted = (await store.alerts.open(newAlert(sub, { condition: 'cpu', startedAt: T0 }))).record;
      const later = (await store.alerts.open(newAlert(sub, { condition: 'ram', startedAt: T0 }))).record;
      const first = (await store.alerts.open(newAlert(sub, { startedAt: T0 }))).record;
      const firing = (await store.alerts.open(newAlert(sub, { condition: 'ip', startedAt: T0 }))).record;
      await store.alerts.setMessage(later.id, '1.2');
      await store.alerts.setMessage(first.id, '1.3');
      await store.alerts.setMessage(firing.id, '1.4');
      expect(await store.alerts.listEditOwed(10)).toEqual([]); // firing: nothing owed
      await store.alerts.resolve(unposted.id, T0 + 10); // no message: nothing to edit
      await store.alerts.resolve(later.id, T0 + 30);
      await store.alerts.resolve(first.id, T0 + 20, { unwatched: 'unsubscribed' });
      const reopened = t.open(path);
      expect((await reopened.alerts.listEditOwed(10)).map((a) => [a.id, a.status, a.messageTs])).toEqual([
        [first.id, 'resolved', '1.3'],
        [later.id, 'resolved', '1.2'],
      ]);
      expect((await reopened.alerts.listEditOwed(1)).map((a) => a.id)).toEqual([first.id]);
      await reopened.alerts.editShown(first.id);
      expect((await store.alerts.listEditOwed(10)).map((a) => a.id)).toEqual([later.id]);
      await expect(store.alerts.editShown('nope')).rejects.toThrow(/id must be an alert id/);
    });

    it('refuses bad input and unknown references', async () => {
      const store = t.open(t.file());
      const sub = await setup(store);
      await expect(store.alerts.open(newAlert('w12345678'))).rejects.toThrow(/subscriptionId must be a subscription id/);
      await expect(store.alerts.open(newAlert(sub, { condition: '' }))).rejects.toThrow(/condition must be a non-empty string/);
      await expect(store.alerts.open(newAlert(sub, { startedAt: Number.NaN }))).rejects.toThrow(/startedAt must be an integer/);
      await expect(store.alerts.open(newAlert(sub, { detail: [] as unknown as Record<string, unknown> }))).rejects.toThrow(/detail must be a plain object/);
      await expect(store.alerts.open(newAlert('sub_aaaaaaaaaa'))).rejects.toThrow(/foreign key/i);
      await expect(store.alerts.setMessage('alt_aaaaaaaaaa', '1.2')).rejects.toThrow(/No alert alt_aaaaaaaaaa/);
      await expect(store.alerts.setMessage('nope', '1.2')).rejects.toThrow(/id must be an alert id/);
      const { record } = await store.alerts.open(newAlert(sub));
      await expect(store.alerts.setMessage(record.id, '')).rejects.toThrow(/messageTs must be a non-empty string/);
      await expect(store.alerts.resolve(record.id, T0, [] as unknown as Record<string, unknown>)).rejects.toThrow(/detail must be a plain object/);
      expect(await store.alerts.listFiring()).toEqual([record]);
    });
  });
});
