/**
 * The one access check every entry point calls (commands, clicks, forms), at the moment of
 * acting, with the operation's tier. A refusal is audited and answered privately.
 */
import type { Access } from '../access/access.js';
import { auditEntry } from '../audit/entry.js';
import type { Auditor } from '../audit/types.js';
import type { AnyOperation, Reply } from '../operations/types.js';
import { buildAccessRefusal } from '../views/access-views.js';

export interface GuardDeps {
  access: Access;
  auditor?: Auditor;
}

/** undefined when allowed; otherwise the refusal to show. */
export async function guard(
  deps: GuardDeps,
  op: Pick<AnyOperation, 'id' | 'command' | 'tier'> & Partial<Pick<AnyOperation, 'change'>>,
  userId: string,
  channelId: string | undefined,
  args: Record<string, unknown> = {},
): Promise<Reply | undefined> {
  const decision = await deps.access.check(userId, channelId, op.tier);
  if (decision.ok) return undefined;
  await deps.auditor?.record(
    auditEntry({
      op,
      userId,
      channelId,
      args,
      outcome: 'refused',
      errorCode: decision.reason === 'channel' ? 'CHANNEL_NOT_ALLOWED' : 'ACCESS_DENIED',
      detail: decision.reason === 'channel' ? 'not an allowed channel' : `needs ${decision.needed}; has ${decision.role ?? 'no role'}`,
    }),
  );
  return buildAccessRefusal(decision, op.command, op.tier);
}
