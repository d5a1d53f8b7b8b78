/** The audit trail in PostgreSQL: append-only rows, newest first; same checks as the SQLite store. */
import type { Clock } from '../../clock.js';
import { auditInsertParams, clampAuditLimit, toEntry, type AuditRow, type AuditStore } from '../audit-store.js';
import { run, type Queryable } from './sql.js';

const COLUMNS = ['at', 'user_id', 'channel_id', 'op_id', 'tier', 'args', 'outcome', 'error_code', 'confirmed_by', 'approved_by', 'operation_id', 'duration_ms', 'detail', 'account'] as const;

export function createPgAuditStore(db: () => Promise<Queryable>, clock: Pick<Clock, 'now'>): AuditStore {
  return {
    // One multi-row INSERT: atomic by itself, one round trip for the group.
    async insertMany(entries) {
      if (entries.length === 0) return [];
      const params: Record<string, unknown> = {};
      const rows = entries.map((entry, i) => {
        const p = auditInsertParams(entry, clock.now());
        for (const c of COLUMNS) params[`${c}_${i}`] = p[c];
        return `(${COLUMNS.map((c) => (c === 'args' ? `@${c}_${i}::jsonb` : `@${c}_${i}`)).join(', ')})`;
      });
      const stored = await run<AuditRow>(await db(), `INSERT INTO audit (${COLUMNS.join(', ')}) VALUES ${rows.join(', ')} RETURNING *`, params);
      if (stored.length !== entries.length) throw new Error('audit insert returned fewer rows than it was given');
      // Ids are drawn in the order of the VALUES list: sorted by id, the rows are in the order given.
      return stored.sort((a, b) => Number(a.id) - Number(b.id)).map(toEntry);
    },

    async insert(entry) {
      const [row] = await run<AuditRow>(
        await db(),
        `INSERT INTO audit (at, user_id, channel_id, op_id, tier, args, outcome, error_code, confirmed_by,
                            approved_by, operation_id, duration_ms, detail, account)
         VALUES (@at, @user_id, @channel_id, @op_id, @tier, @args::jsonb, @outcome, @error_code, @confirmed_by,
                 @approved_by, @operation_id, @duration_ms, @detail, @account)
         RETURNING *`,
        auditInsertParams(entry, clock.now()),
      );
      if (!row) throw new Error('audit insert returned no row');
      return toEntry(row);
    },

    async list({ userId, limit }) {
      const n = clampAuditLimit(limit);
      const rows =
        userId === undefined
          ? await run<AuditRow>(await db(), 'SELECT * FROM audit ORDER BY at DESC, id DESC LIMIT @n', { n })
          : await run<AuditRow>(await db(), 'SELECT * FROM audit WHERE user_id = @u ORDER BY at DESC, id DESC LIMIT @n', { u: userId, n });
      return rows.map(toEntry);
    },
  };
}
