/** The audit trail in PostgreSQL: append-only rows, newest first; same checks as the SQLite store. */
import type { Clock } from '../../clock.js';
import { auditInsertParams, clampAuditLimit, toEntry, type AuditRow, type AuditStore } from '../audit-store.js';
import { run, type Queryable } from './sql.js';

export function createPgAuditStore(db: () => Promise<Queryable>, clock: Pick<Clock, 'now'>): AuditStore {
  return {
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
