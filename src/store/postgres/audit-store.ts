/** The audit trail in PostgreSQL: append-only rows, newest first; same checks as the SQLite store. */
import type { Clock } from '../../clock.js';
import { clampAuditLimit, optionalText, text, toEntry, type AuditRow, type AuditStore } from '../audit-store.js';
import { objectToJson } from '../operation-rows.js';
import { run, type Queryable } from './sql.js';

export function createPgAuditStore(db: () => Promise<Queryable>, clock: Pick<Clock, 'now'>): AuditStore {
  return {
    async insert(entry) {
      const at = entry.at ?? clock.now();
      if (!Number.isSafeInteger(at)) throw new TypeError('at must be an integer (epoch ms)');
      const duration = entry.durationMs ?? null;
      if (duration !== null && !(Number.isFinite(duration) && duration >= 0)) {
        throw new TypeError('durationMs must be a non-negative number or null');
      }
      const [row] = await run<AuditRow>(
        await db(),
        `INSERT INTO audit (at, user_id, channel_id, op_id, tier, args, outcome, error_code, confirmed_by,
                            approved_by, operation_id, duration_ms, detail)
         VALUES (@at, @user_id, @channel_id, @op_id, @tier, @args::jsonb, @outcome, @error_code, @confirmed_by,
                 @approved_by, @operation_id, @duration_ms, @detail)
         RETURNING *`,
        {
          at,
          user_id: text(entry.userId, 'userId'),
          channel_id: optionalText(entry.channelId, 'channelId'),
          op_id: text(entry.opId, 'opId'),
          tier: entry.tier,
          args: objectToJson(entry.args, 'args'),
          outcome: entry.outcome,
          error_code: optionalText(entry.errorCode, 'errorCode'),
          confirmed_by: optionalText(entry.confirmedBy, 'confirmedBy'),
          approved_by: optionalText(entry.approvedBy, 'approvedBy'),
          operation_id: optionalText(entry.operationId, 'operationId'),
          // bigint column, as SQLite's INTEGER: a measured 12.5 ms is stored as 13.
          duration_ms: duration === null ? null : Math.round(duration),
          detail: optionalText(entry.detail, 'detail'),
        },
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
