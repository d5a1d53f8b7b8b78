/** Issue 14 "Fix what was seen": counts in the right number, ids labelled, locations named alike, values named. */
import { describe, expect, it } from 'vitest';
import { catalog } from '../../../src/operations/index.js';
import { parseCommand } from '../../../src/operations/parse-command.js';
import type { WatchRecord } from '../../../src/store/watch-store.js';
import type { AuditEntry } from '../../../src/domain/audit-entry.js';
import { buildWatchList } from '../../../src/views/watch-views.js';
import { buildPlans } from '../../../src/views/plan-views.js';
import { buildAuditList } from '../../../src/views/audit-views.js';
import { buildSubnets } from '../../../src/views/ip-views.js';
import { buildUsage } from '../../../src/views/account-views.js';

const now = Date.parse('2026-11-22T12:00:00Z');
const shown = (r: { text: string; blocks: unknown[] }) => `${r.text}\n${JSON.stringify(r.blocks)}`;

describe('counts say one thing in the singular', () => {
  it('a watch polled once: "1 poll"', () => {
    const w = { id: 'wabcdefgh', kind: 'server', resource: '101', status: 'active', polls: 1, startedAt: now - 60_000, requestedBy: 'U1', account: null } as unknown as WatchRecord;
    const r = buildWatchList([w], now);
    expect(shown(r)).toContain('1 poll ·');
    expect(shown(r)).not.toMatch(/\b1 polls\b/);
    expect(r.text).toBe('1 active watch');
  });

  it('one audit entry, one subnet, one server, one backup', () => {
    const e = { id: 1, at: now - 1000, userId: 'U1', channelId: 'C1', opId: 'plan.list', tier: 'read', args: {}, outcome: 'succeeded', errorCode: null, confirmedBy: null, approvedBy: null } as unknown as AuditEntry;
    expect(shown(buildAuditList([e], now))).not.toMatch(/\b1 entries\b/);
    expect(shown(buildSubnets([{ id: 's1', available: 3 }]))).not.toMatch(/\b1 subnets\b/);
    expect(shown(buildUsage({ servers: 1 }))).not.toMatch(/\b1 servers\b/);
    expect(shown(buildPlans({ data: [{ id: 4, name: 'S', backup_limit: 1 }], meta: { current_page: 1, last_page: 1 } }, undefined, []))).not.toMatch(/\b1 backups\b/);
  });
});

describe('ids and locations', () => {
  it('a plan list labels the id', () => {
    const r = buildPlans({ data: [{ id: 4, name: 'S', cpu: 1 }], meta: { current_page: 1, last_page: 1 } }, undefined, []);
    expect(shown(r)).toContain('id `4`');
  });

  it('dry run and confirmation name the location the same way', () => {
    for (const [id, args, facts] of [
      ['worker.deploy', { name: 'shop', location: 2, source: 'public', repo: 'https://github.com/a/b.git' }, { where: 'FRA — Frankfurt' }],
      ['ip.reserve', { location: 2, subnet: 'sub-fra-1', quantity: 1 }, { where: 'FRA' }],
    ] as const) {
      const change = catalog.byId(id)!.change!;
      const dry = change.describe(args as never, {}).title;
      const asked = change.describe(args as never, facts).title;
      expect(dry, id).toContain('location 2');
      expect(asked, id).toContain('location 2');
      expect(asked, id).toContain(`\`${facts.where}\``);
    }
  });

  it('`watch cancel nonexistent` names the value', () => {
    const p = parseCommand('watch cancel nonexistent', catalog);
    expect(p.kind === 'problem' && p.problem.message).toContain('`nonexistent`');
  });
});
