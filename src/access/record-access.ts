/**
 * Access to what a record stands for (issue 21). A watch, a subscription or an alert belongs
 * to a channel and an account; whatever shows it (the Home tab) or acts on it (a click on its
 * button) is decided there — the person's role in that channel, its ceiling, the accounts it
 * may use — never in the channel a click came from, nor on an account a button's value names.
 * A button acts only as it was drawn, and only ever starts a read.
 */
import type { AnyOperation } from '../operations/types.js';
import type { Access, AccessDecision, Guarded } from './access.js';

/** Where a record lives. `account` null: the default account. */
export interface RecordPlace {
  channelId: string;
  account: string | null;
}

/** The channel and account a check about this record uses. */
export function placeOf(access: Pick<Access, 'policy'>, record: RecordPlace): { channelId: string; account: string } {
  return { channelId: record.channelId, account: record.account ?? access.policy().defaultAccount };
}

/** A read: it changes neither the cloud nor the bot's own state (a subscription, an alias, a mute). */
export function isRead(op: Pick<AnyOperation, 'tier' | 'mutates'> & { change?: unknown }): boolean {
  return !op.change && !op.mutates && op.tier !== 'change' && op.tier !== 'destroy';
}

/** The person's right to act on the record with `op`: decided in its channel, on its account. */
export function checkOnRecord(access: Access, userId: string, record: RecordPlace, op: Guarded): Promise<AccessDecision> {
  const at = placeOf(access, record);
  return access.check(userId, at.channelId, op, at.account);
}

/** May this person be shown the record: every read it stands for, in its channel, on its account. */
export async function mayReadRecord(access: Access, userId: string, record: RecordPlace, reads: readonly (Guarded | undefined)[]): Promise<boolean> {
  if (!reads.length) return false;
  for (const op of reads) if (!op || !(await checkOnRecord(access, userId, record, op)).ok) return false;
  return true;
}

/** A button as drawn: the operation, its arguments, the account it names. */
export interface DrawnButton {
  op: string;
  args: Record<string, unknown>;
  account?: string | undefined;
}

/** Arguments in one canonical form (keys sorted), so a click's value compares with what was drawn. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

/**
 * The button drawn on the record that a click's value names — same operation, arguments and
 * account — and only if it is a read; else undefined (a forged or outdated value does nothing).
 */
export function drawnRead<T extends DrawnButton>(drawn: readonly T[], clicked: DrawnButton, opOf: (id: string) => Parameters<typeof isRead>[0] | undefined): T | undefined {
  const hit = drawn.find((d) => d.op === clicked.op && d.account === clicked.account && canonical(d.args) === canonical(clicked.args));
  const op = hit && opOf(hit.op);
  return hit && op && isRead(op) ? hit : undefined;
}
