/** `/cloud audit`: the recent audit trail, for admins. */
import { z } from 'zod';
import { buildAuditList } from '../../views/audit-views.js';
import { defineOperation, flag } from '../define.js';

export const auditList = defineOperation({
  id: 'audit.list',
  summary: 'Recent operations: who did what, where, and how it ended (admins)',
  // Admins only: the trail shows who ran what, including who looked at credentials.
  tier: 'secret',
  scope: 'bot',
  secret: false,
  args: {
    user: flag('U…', z.string().trim().regex(/^[UW][A-Z0-9]{2,}$/, { error: 'must be a Slack user id like U0123ABCD' }).optional(), 'only this person’s entries'),
    limit: flag('N', z.coerce.number({ error: 'must be a number' }).int().min(1, { error: 'must be 1 or more' }).max(100, { error: 'must be at most 100' }).optional(), 'how many entries (default 20)'),
  },
  async run({ audit }, { user, limit }) {
    if (!audit) throw new Error('the audit trail is not available here');
    return audit.list({ limit: limit ?? 20, ...(user ? { userId: user } : {}) });
  },
  render: (entries, { user }, view) => buildAuditList(entries, view.now, user ? { userId: user } : {}),
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const AUDIT_OPS = [auditList];
