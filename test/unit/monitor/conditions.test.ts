import { describe, expect, it } from 'vitest';
import { conditionsOf, shownCleared } from '../../../src/monitor/conditions.js';
import { digestDue } from '../../../src/monitor/digest.js';
import { localParts, minutesOf } from '../../../src/monitor/local-time.js';
import type { SubscriptionRecord } from '../../../src/store/monitor-types.js';

const keys = (m: Map<string, unknown>) => [...m.keys()].sort();

describe('alert conditions', () => {
  it('a condition is shown cleared only by a read that has what it is judged by', () => {
    expect(shownCleared('server', { power: 'running', app: null }, 'power-off')).toBe(true);
    expect(shownCleared('server', { power: null, app: null }, 'power-off')).toBe(false);
    expect(shownCleared('server', { power: 'running', app: null }, 'busy')).toBe(true); // null: nothing under way
    expect(shownCleared('worker', { status: null, deployment: null, suspended: null }, 'failed')).toBe(false);
    expect(shownCleared('worker', { status: 'active', deployment: null, suspended: null }, 'failed')).toBe(true);
    expect(shownCleared('usage', { cpuUsed: null, cpuLimit: 10, ipUsed: 1, ipLimit: 4 }, 'cpu')).toBe(false);
    expect(shownCleared('usage', { cpuUsed: null, cpuLimit: 10, ipUsed: 1, ipLimit: 4 }, 'ip')).toBe(true);
    expect(shownCleared('server', undefined, 'power-off')).toBe(false);
  });

  it('server: powered off, an install or restore in progress, a failed power task', () => {
    expect(keys(conditionsOf('server', { power: 'running', app: null }))).toEqual([]);
    expect(conditionsOf('server', { power: 'stopped', app: null }).get('power-off')).toEqual({ state: 'stopped' });
    expect(keys(conditionsOf('server', { power: 'running', app: 'reinstalling' }))).toEqual(['busy']);
    expect(keys(conditionsOf('server', { power: 'running', app: 'suspended' }))).toEqual(['busy']);
    expect(keys(conditionsOf('server', { power: 'running', app: null, taskStatus: 'failed', taskAction: 'start' }))).toEqual(['task-failed']);
    expect(keys(conditionsOf('server', undefined))).toEqual([]);
  });

  it('worker: building, then failed or fine', () => {
    expect(keys(conditionsOf('worker', { status: 'pending', deployment: 'in_progress' }))).toEqual(['building']);
    expect(keys(conditionsOf('worker', { status: 'active', deployment: 'finished' }))).toEqual([]);
    expect(conditionsOf('worker', { status: 'failed', error: 'npm ci failed' }).get('failed')).toEqual({ status: 'failed', error: 'npm ci failed' });
    expect(keys(conditionsOf('worker', { status: 'active', suspended: 'billing' }))).toEqual(['failed']);
  });

  it('usage: each metric against its threshold (all at 90 % when none is named)', () => {
    const gb = 1024 ** 3;
    const state = { cpuUsed: 18, cpuLimit: 20, ramUsed: 10 * gb, ramLimitGb: 32, ipUsed: 4, ipLimit: 4 };
    expect(keys(conditionsOf('usage', state))).toEqual(['cpu', 'ip']);
    expect(conditionsOf('usage', state).get('cpu')).toEqual({ used: 18, limit: 20, percent: 90, threshold: 90 });
    // Named thresholds: only those metrics are watched.
    expect(keys(conditionsOf('usage', state, { ram: 30 }))).toEqual(['ram']);
    expect(keys(conditionsOf('usage', state, { cpu: 95 }))).toEqual([]);
    expect(keys(conditionsOf('usage', { cpuUsed: 5, cpuLimit: 0 }))).toEqual([]);
  });

  it('invoices: one condition per unpaid invoice, so a new one fires on its own', () => {
    const c = conditionsOf('invoices', { unpaid: [{ id: 7, status: 'unpaid', amountDue: 12 }, { id: 9, status: 'overdue', amountDue: 3 }] });
    expect(keys(c)).toEqual(['invoice:7', 'invoice:9']);
    expect(c.get('invoice:9')).toMatchObject({ status: 'overdue' });
  });
});

describe('digest time', () => {
  const sub = (params: Record<string, unknown>, lastRun: string | null = null): SubscriptionRecord => ({
    id: 'sub_aaaaaaaaaa', channelId: 'C1', account: null, kind: 'digest', resource: '', params, createdBy: 'U1', createdAt: 0, mutedUntil: null, removedAt: null, lastRun, runOwed: null,
  });

  it('reads the wall clock of a time zone', () => {
    const t = Date.UTC(2026, 10, 23, 23, 30); // 23:30 UTC is 00:30 the next day in Berlin
    expect(localParts(t, 'UTC')).toEqual({ day: '2026-11-23', minutes: 23 * 60 + 30 });
    expect(localParts(t, 'Europe/Berlin')).toEqual({ day: '2026-11-24', minutes: 30 });
    expect(minutesOf('09:05')).toBe(545);
    expect(minutesOf('24:00')).toBeUndefined();
  });

  it('is due from its local time on, once a day', () => {
    const at = (h: number, m: number) => Date.UTC(2026, 10, 23, h, m);
    const s = sub({ at: '09:00', tz: 'UTC' });
    expect(digestDue(s, at(8, 59))).toBeUndefined();
    expect(digestDue(s, at(9, 0))).toBe('2026-11-23');
    expect(digestDue(sub({ at: '09:00', tz: 'UTC' }, '2026-11-23'), at(15, 0))).toBeUndefined();
    expect(digestDue(sub({ at: '09:00', tz: 'UTC' }, '2026-11-23'), Date.UTC(2026, 10, 24, 9, 0))).toBe('2026-11-24');
    // 09:00 in Tokyo is 00:00 UTC.
    expect(digestDue(sub({ at: '09:00', tz: 'Asia/Tokyo' }), Date.UTC(2026, 10, 23, 0, 0))).toBe('2026-11-23');
  });
});
