/**
 * "Act on this" (issue 23): what a message names and what this person may run on each, in
 * that channel — and, once one is chosen, running it exactly as `/cloud` would (runCommand:
 * parse, access, names, the change flow with its confirmation card). The choices are catalog
 * operations that take one server, group or worker and nothing else required; the access
 * layer filters them (role, channel ceiling, account), so a surface never offers more than
 * `/cloud` allows. A channel that refuses reads refuses the whole shortcut, with `/cloud`'s words.
 */
import { z } from 'zod';
import type { Catalog } from '../operations/catalog.js';
import type { AnyOperation, ArgSpec } from '../operations/types.js';
import type { KnownKind, KnownResourceStore } from '../store/known-types.js';
import type { Reply } from '../views/types.js';
import { admit, type GuardDeps } from './guard.js';
import { findResources, type FoundResource } from './find-resources.js';

export interface ActDeps extends GuardDeps {
  catalog: Catalog;
  known?: KnownResourceStore;
}

export interface ActChoice {
  opId: string;
  /** The command's words after the resource (`status`; `backup list` for another resource's). */
  verb: string;
  tier: AnyOperation['tier'];
  /** What it runs, as typed after `/cloud` (`server status 101`). */
  text: string;
}

export interface ActItem extends FoundResource {
  choices: ActChoice[];
}

export type ActListing = { kind: 'refused'; reply: Reply } | { kind: 'listed'; items: ActItem[]; account: string };

/** The read the shortcut stands for when asking whether the channel allows anything at all. */
const PROBE: Record<KnownKind, string> = { server: 'server.status', sg: 'sg.show', worker: 'worker.status' };
const TIER_ORDER = ['read', 'change', 'billing', 'destroy'];

/** The one argument of `op` that names a resource of `kind`, when it is the only one required. */
function resourceArg(op: AnyOperation, kind: KnownKind, id: string): string | undefined {
  const named = (Object.entries(op.args) as [string, ArgSpec][]).filter(([, spec]) => spec.names === kind);
  if (named.length !== 1 || op.tier === 'secret') return undefined;
  if (op.change?.modal?.whenBare) return undefined; // it opens a form: /cloud is the way in
  const [name] = named[0]!;
  const value = kind === 'sg' ? Number(id) : id;
  return op.schema.safeParse({ [name]: value }).success ? name : undefined;
}

/** Operations that act on a resource of `kind` given only its id (for unfurl buttons too). */
export function opsFor(catalog: Catalog, kind: KnownKind, id: string): AnyOperation[] {
  return catalog.operations
    .filter((op) => resourceArg(op, kind, id) !== undefined)
    .sort((a, b) => TIER_ORDER.indexOf(a.tier) - TIER_ORDER.indexOf(b.tier));
}

/** `status` for the resource's own commands, `backup list` or `subscribe server` for another's. */
export function choiceLabel(op: AnyOperation, kind: KnownKind): string {
  return op.resource === kind ? op.verb : `${op.resource} ${op.verb}`;
}

/** The argument a one-resource operation takes its id in (see `opsFor`). */
export function argFor(op: AnyOperation, kind: KnownKind, id: string): Record<string, unknown> {
  const name = resourceArg(op, kind, id);
  return name ? { [name]: kind === 'sg' ? Number(id) : id } : {};
}

/** The resources `text` names and what `userId` may run on each in `channelId`. */
export async function listActions(deps: ActDeps, input: { userId: string; channelId: string; text: string }): Promise<ActListing> {
  const probe = deps.catalog.byId(PROBE.server);
  if (!probe) throw new Error('the catalog has no server.status');
  // As `/cloud server status` here would be: a refusal (deny, CLOUD_CHANNELS, no role) is audited and told.
  const admitted = await admit(deps, probe, input.userId, input.channelId);
  if (!admitted.ok) return { kind: 'refused', reply: admitted.reply };
  const found = await findResources(deps.known, admitted.account, input.text);
  const items: ActItem[] = [];
  for (const r of found) {
    const allowed = await deps.access.allowed(input.userId, input.channelId, opsFor(deps.catalog, r.kind, r.id));
    const choices = allowed.map((op) => ({ opId: op.id, verb: choiceLabel(op, r.kind), tier: op.tier, text: `${op.command.replace(/^\/cloud /, '')} ${r.id}` }));
    items.push({ ...r, choices });
  }
  return { kind: 'listed', items, account: admitted.account };
}

/** What a choice's button carries: the command words, read again like typed input. */
const ChoiceValue = z.object({ c: z.string().min(1).max(300) });

export function choiceValue(choice: ActChoice): string {
  return JSON.stringify({ c: choice.text });
}

/** The command text a button names, or undefined when it is not one of ours. */
export function readChoice(raw: string | undefined): string | undefined {
  try {
    const parsed = ChoiceValue.safeParse(JSON.parse(raw ?? ''));
    return parsed.success ? parsed.data.c : undefined;
  } catch {
    return undefined;
  }
}
