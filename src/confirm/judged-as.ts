/**
 * Whose rules a change's clicks follow. A change is judged as itself, except a card that stands
 * for other operations (a schedule's Confirm: the command it arms and, with `--keep`, backup
 * delete): its record names them (`facts.judgedAs`, from ChangeRequest.judgedAs), and whether it
 * waits for a second admin's approval, and who may click it, are theirs — under the policy in
 * force at the click, as for any change. The card's own tier says nothing about either.
 * Pure: the change flow (start, click, render) and the App Home ask the same question here.
 */
import type { AnyOperation } from '../operations/types.js';

/** The record's facts key naming, by id, the operations a card is judged as. */
export const JUDGED_AS = 'judgedAs';

type ById = (id: string) => AnyOperation | undefined;
type Where = { channelId: string; account: string | null; facts: Record<string, unknown> };

/**
 * The operations a change is judged as. Fails closed: an empty list, or an id the catalog no
 * longer knows, leaves the change judged as itself too (never as nothing, never as less).
 */
export function judgedAs(op: AnyOperation, facts: Record<string, unknown>, byId: ById): AnyOperation[] {
  const ids = facts[JUDGED_AS];
  if (!Array.isArray(ids)) return [op];
  const ops = ids.map((id) => (typeof id === 'string' ? byId(id) : undefined));
  const known = ops.filter((o): o is AnyOperation => !!o);
  return known.length && known.length === ops.length ? known : [op, ...known];
}

/** Whether it waits for a second admin: when any operation it is judged as needs one here. */
export function approvalNeeded(op: AnyOperation, r: Where, rule: (op: AnyOperation, where: Where) => boolean, byId: ById): boolean {
  return judgedAs(op, r.facts, byId).some((o) => rule(o, r));
}
