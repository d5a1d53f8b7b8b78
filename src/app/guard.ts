/**
 * The one access check every entry point calls (commands, clicks, forms), at the moment of
 * acting, with the operation's tier and scope and the account asked for. A refusal is audited
 * (with the rule that refused) and answered privately; an admission names the account to use.
 */
import type { Access, AccessRefusal, Guarded } from '../access/access.js';
import { channelRule } from '../access/policy.js';
import { auditEntry } from '../audit/entry.js';
import type { Auditor } from '../domain/audit-entry.js';
import type { AnyOperation } from '../operations/types.js';
import type { Reply } from '../views/types.js';
import { buildAccessRefusal } from '../views/access-views.js';

export interface GuardDeps {
  access: Access;
  auditor?: Auditor;
}

export type GuardedOp = Pick<AnyOperation, 'id' | 'command'> & Guarded & Partial<Pick<AnyOperation, 'change'>>;

/** `unread`: refused only because these user groups could not be read (Slack did not answer) — no verdict. */
export type Admission = { ok: true; account: string } | { ok: false; reply: Reply; unread?: readonly string[] };

const ERROR_CODES: Record<AccessRefusal['reason'], string> = {
  channel: 'CHANNEL_NOT_ALLOWED',
  unlisted: 'CHANNEL_NOT_ALLOWED',
  account: 'ACCOUNT_NOT_ALLOWED',
  ceiling: 'CHANNEL_CEILING',
  'account-ceiling': 'ACCOUNT_CEILING',
  role: 'ACCESS_DENIED',
};

function refusalDetail(d: AccessRefusal): string {
  const rule = `rule ${d.rule.key}`;
  switch (d.reason) {
    case 'channel':
      return 'not an allowed channel (CLOUD_CHANNELS)';
    case 'unlisted':
      return `channel not in the policy; ${rule}: deny`;
    case 'account':
      return `account ${d.account} not allowed here; ${rule}`;
    case 'ceiling':
    case 'account-ceiling':
      return `above the ceiling (${d.ceiling.join(', ') || 'nothing'}); ${rule}`;
    case 'role':
      return `needs ${d.needed}; has ${d.role ?? 'no role'} (${d.rule.key})`;
  }
}

/** The account a command here would have gone to (audit entries of refusals name it). */
function channelAccount(access: Access, channelId: string | undefined): string | null {
  const rule = channelRule(access.policy(), channelId);
  return rule === 'deny' ? null : rule.account;
}

/**
 * A refusal in the audit trail: who, where, what, on which account, and the rule that refused.
 * `prefix` says what was refused when it is not the command itself (a click on a change's card).
 */
export async function auditRefusal(
  deps: GuardDeps,
  op: GuardedOp,
  userId: string,
  channelId: string | undefined,
  args: Record<string, unknown>,
  account: string | undefined,
  decision: AccessRefusal,
  prefix = '',
): Promise<void> {
  await deps.auditor?.record(
    auditEntry({
      op,
      userId,
      channelId,
      args,
      account: decision.reason === 'account' || decision.reason === 'account-ceiling' ? decision.account : (account ?? channelAccount(deps.access, channelId)),
      outcome: 'refused',
      errorCode: ERROR_CODES[decision.reason],
      detail: `${prefix}${refusalDetail(decision)}`,
    }),
  );
}

/** Allowed (and on which account), or the refusal to show. */
export async function admit(
  deps: GuardDeps,
  op: GuardedOp,
  userId: string,
  channelId: string | undefined,
  args: Record<string, unknown> = {},
  account?: string,
): Promise<Admission> {
  const decision = await deps.access.check(userId, channelId, op, account);
  if (decision.ok) return { ok: true, account: decision.account };
  await auditRefusal(deps, op, userId, channelId, args, account, decision);
  const reply = buildAccessRefusal(decision, op.command, op.tier);
  return decision.reason === 'role' && decision.unread?.length ? { ok: false, reply, unread: decision.unread } : { ok: false, reply };
}

/** undefined when allowed; otherwise the refusal to show (`admit` without the account). */
export async function guard(...args: Parameters<typeof admit>): Promise<Reply | undefined> {
  const admitted = await admit(...args);
  return admitted.ok ? undefined : admitted.reply;
}

/**
 * Thrown from inside an operation when the record it acts on refuses the person (a watch's
 * channel or account, checked — and audited — by the control that found it): run-operation
 * answers with `reply` and records no success.
 */
export class RefusedByRecord extends Error {
  constructor(readonly reply: Reply) {
    super('refused by the record it acts on');
    this.name = 'RefusedByRecord';
  }
}
