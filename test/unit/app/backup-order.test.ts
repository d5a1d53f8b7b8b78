/**
 * Retention's order (src/app/backup-retention.ts): oldest first, so the oldest go first. A
 * backup whose `created_at` the cloud leaves null or unreadable counts as newest — it is never
 * the first deleted on a guess — and the order is the same whatever order the list came in.
 */
import { describe, expect, it } from 'vitest';
import { oldestFirst } from '../../../src/app/backup-retention.js';
import type { Backup } from '../../../src/cloud-api/schemas.js';

const backup = (uuid: string, created_at: string | null): Backup => ({ uuid, created_at, is_locked: false, is_successful: true }) as unknown as Backup;

describe('oldestFirst', () => {
  it('puts a backup without a readable time after every dated one, in one order whatever the input order', () => {
    const list = [
      backup('cccccccc-0000-4000-8000-000000000003', null),
      backup('aaaaaaaa-0000-4000-8000-000000000001', '2026-11-02T02:00:00Z'),
      backup('dddddddd-0000-4000-8000-000000000004', 'not a date'),
      backup('bbbbbbbb-0000-4000-8000-000000000002', '2026-11-01T02:00:00Z'),
    ];
    const order = (l: Backup[]) => [...l].sort(oldestFirst).map((b) => b.uuid[0]);
    expect(order(list)).toEqual(['b', 'a', 'c', 'd']);
    expect(order([...list].reverse())).toEqual(['b', 'a', 'c', 'd']);
  });
});
