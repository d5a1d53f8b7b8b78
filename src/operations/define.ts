/**
 * `defineOperation` turns one declaration into a catalog entry: the argument specs give both
 * the usage line and the zod schema, so the two can never disagree.
 */
import { z } from 'zod';
import type { ArgSpec, ArgSpecs, ArgsOf, ChangeSpec, Operation, RunContext } from './types.js';
import type { Reply, ViewContext } from '../views/types.js';
import type { Scope, Tier } from '../domain/tier.js';
import { buildChangeResult } from '../views/click-views.js';

export interface OperationDeclaration<S extends ArgSpecs, R> {
  id: `${string}.${string}`;
  summary: string;
  tier: Tier;
  /** Default: `cloud`. */
  scope?: Scope;
  args: S;
  /** Default: true unless the tier is `read` or `secret`. */
  mutates?: boolean;
  /** Default: the opposite of `mutates`. */
  ephemeral?: boolean;
  secret?: boolean;
  pageArg?: keyof S & string;
  run: Operation<S, R>['run'];
  /** Reads render their result; changes may leave it out (their status message shows it). */
  render?: Operation<S, R>['render'];
  change?: ChangeSpec<ArgsOf<S>, R>;
  watchable?: Operation<S, R>['watchable'];
  remember?: Operation<S, R>['remember'];
  declined?: Operation<S, R>['declined'];
}

export function defineOperation<const S extends ArgSpecs, R>(decl: OperationDeclaration<S, R>): Operation<S, R> {
  const [resource, verb] = decl.id.split('.') as [string, string];
  const mutates = decl.mutates ?? !(decl.tier === 'read' || decl.tier === 'secret');
  const shape = Object.fromEntries(Object.entries(decl.args).map(([name, spec]) => [name, spec.schema]));
  return {
    id: decl.id,
    resource,
    verb,
    command: `/cloud ${resource} ${verb}`,
    summary: decl.summary,
    tier: decl.tier,
    scope: decl.scope ?? 'cloud',
    args: decl.args,
    schema: z.object(shape) as unknown as z.ZodType<ArgsOf<S>>,
    mutates,
    ephemeral: decl.ephemeral ?? !mutates,
    secret: decl.secret ?? decl.tier === 'secret',
    run: decl.run,
    render: decl.render ?? ((result, args) => changeReply(decl.change, result, args)),
    ...(decl.pageArg ? { pageArg: decl.pageArg } : {}),
    ...(decl.change ? { change: decl.change } : {}),
    ...(decl.watchable ? { watchable: decl.watchable } : {}),
    ...(decl.remember ? { remember: decl.remember } : {}),
    ...(decl.declined ? { declined: decl.declined } : {}),
  };
}

/**
 * `declined` for results told apart by `kind`: the audit's error code for each kind that means
 * nothing was done (the others are done).
 */
export const declinedKinds =
  <R extends { kind: string }>(codes: Partial<Record<R['kind'], string>>) =>
  (result: R): string | undefined =>
    Object.hasOwn(codes, result.kind) ? (codes as Record<string, string>)[result.kind] : undefined;

/** A change's result as a plain reply (the shell and tests read this; Slack shows the status message). */
function changeReply<A, R>(change: ChangeSpec<A, R> | undefined, result: R, args: A): Reply {
  return buildChangeResult(change?.summarize(result, args).text);
}

/** A read of the cloud: tier `read`, and no arguments unless it names some. */
export const defineRead = <const S extends ArgSpecs = Record<never, never>, R = unknown>(
  decl: Omit<OperationDeclaration<S, R>, 'tier' | 'args'> & { args?: S },
): Operation<S, R> => defineOperation<S, R>({ ...decl, args: decl.args ?? ({} as S), tier: 'read' });

/**
 * A read with no arguments: one cloud call (given the request's signal) and one view of its
 * answer — the listings (`worker.locations`, `ssh-key.list`, …) are only this.
 */
export const defineListRead = <R>(
  id: `${string}.${string}`,
  summary: string,
  call: (cloud: RunContext['cloud'], options: { signal?: AbortSignal }) => Promise<R>,
  view: (result: R, view: ViewContext) => Reply,
): Operation<Record<never, never>, R> =>
  defineRead({ id, summary, run: ({ cloud, signal }) => call(cloud, { signal }), render: (result, _args, v) => view(result, v) });

/**
 * A list the cloud gives whole (`ssh-key list`, `worker locations`…), shown a page at a time:
 * `--page N` (checked before anything is read) picks the page the view shows (`view.pages`).
 */
export const definePagedListRead = <R>(
  id: `${string}.${string}`,
  summary: string,
  call: (cloud: RunContext['cloud'], options: { signal?: AbortSignal }) => Promise<R>,
  view: (result: R, view: ViewContext) => Reply,
) =>
  defineRead({ id, summary, args: { page: pageFlag }, pageArg: 'page', run: ({ cloud, signal }) => call(cloud, { signal }), render: (result, _args, v) => view(result, v) });

/** A change sent to the cloud: tier `change` (confirmed or not, as its `change` spec says). */
export const defineChange = <const S extends ArgSpecs, R>(decl: Omit<OperationDeclaration<S, R>, 'tier'>): Operation<S, R> =>
  defineOperation<S, R>({ ...decl, tier: 'change' });

/** What a bot-local entry leaves out: it touches the bot's own records, never the cloud. */
type BotDeclaration<S extends ArgSpecs, R> = Omit<OperationDeclaration<S, R>, 'tier' | 'scope' | 'mutates' | 'ephemeral'>;

/**
 * A change to the bot's own settings (an alias, a subscription, a watch): tier `change` for
 * access, but nothing is sent to the cloud, so no confirmation, and the answer is private.
 */
export const defineBotChange = <const S extends ArgSpecs, R>(decl: BotDeclaration<S, R>): Operation<S, R> =>
  defineOperation<S, R>({ ...decl, tier: 'change', scope: 'bot', mutates: false, ephemeral: true });

/** A read of the bot's own records (aliases, subscriptions, watches, known names). */
export const defineBotRead = <const S extends ArgSpecs, R>(decl: BotDeclaration<S, R>): Operation<S, R> =>
  defineOperation<S, R>({ ...decl, tier: 'read', scope: 'bot' });

/** A bot-local declaration whose `run` gets the service it works on (`control(ctx)`), not the whole context. */
type ControlDeclaration<S extends ArgSpecs, R, C> = Omit<BotDeclaration<S, R>, 'run'> & { run: (c: C, args: ArgsOf<S>) => Promise<R> };

/**
 * The bot-local entries of one service (aliases, subscriptions, schedules…): `control` takes
 * from the context what they need (the service, who acts, where) or throws where it is missing.
 */
export function botEntries<C>(control: (ctx: RunContext) => C) {
  const bind =
    <S extends ArgSpecs, R>(decl: ControlDeclaration<S, R, C>): BotDeclaration<S, R> =>
      ({ ...decl, run: async (ctx, args) => decl.run(control(ctx), args) });
  return {
    change: <const S extends ArgSpecs, R>(decl: ControlDeclaration<S, R, C>) => defineBotChange<S, R>(bind(decl)),
    read: <const S extends ArgSpecs, R>(decl: ControlDeclaration<S, R, C>) => defineBotRead<S, R>(bind(decl)),
  };
}

/**
 * The control of entries that keep records per channel: the context's `key` service and who
 * acts where. Throws where the surface wired neither (a bug, not a person's mistake).
 */
export function channelControl<K extends keyof RunContext>(key: K) {
  return (ctx: RunContext) => {
    const service = ctx[key];
    if (!service || !ctx.actor?.channelId) throw new Error(`${key} are not available here`);
    const { channelId, userId, teamId } = ctx.actor;
    return { [key]: service, channelId, userId, teamId } as { [P in K]: NonNullable<RunContext[K]> } & { channelId: string; userId: string; teamId: string | undefined };
  };
}

export const positional = <S extends z.ZodType>(placeholder: string, schema: S, description: string): ArgSpec<S> => ({
  kind: 'positional',
  schema,
  placeholder,
  description,
});

export const rest = <S extends z.ZodType>(placeholder: string, schema: S, description: string): ArgSpec<S> => ({
  kind: 'rest',
  schema,
  placeholder,
  description,
});

export const flag = <S extends z.ZodType>(placeholder: string, schema: S, description: string): ArgSpec<S> => ({
  kind: 'flag',
  schema,
  placeholder,
  description,
});

/** An input only the modal asks for (never typed on the command line). */
export const modalOnly = <S extends z.ZodType>(schema: S, description: string): ArgSpec<S> => ({
  kind: 'modal',
  schema,
  placeholder: '',
  description,
});

export const switchFlag = (description: string): ArgSpec<z.ZodType<boolean>> => ({
  kind: 'switch',
  schema: z.boolean().optional().transform((v) => v === true) as unknown as z.ZodType<boolean>,
  placeholder: '',
  description,
});

/** The argument names a thing the cloud may not find: what a NOT_FOUND says about it (ArgSpec `lookup`). */
export const lookedUpAs = <S extends ArgSpec>(spec: S, lookup: NonNullable<ArgSpec['lookup']>): S => ({ ...spec, lookup });

/** Specs are declared once and never change, so each one's answer is kept (a failed safeParse builds an error). */
const optional = new WeakMap<ArgSpec, boolean>();

/** Whether an argument may be left out (its schema accepts `undefined`). */
export function isOptional(spec: ArgSpec): boolean {
  let known = optional.get(spec);
  if (known === undefined) optional.set(spec, (known = spec.kind === 'switch' || spec.kind === 'modal' || spec.schema.safeParse(undefined).success));
  return known;
}

/** `--page N` → a whole page number ≥ 1, absent means the first page. */
export const pageFlag = flag(
  'N',
  z.coerce
    .number({ error: 'must be a page number' })
    .int({ error: 'must be a whole page number' })
    .min(1, { error: 'must be 1 or more' })
    .max(100_000, { error: 'is too large' })
    .optional(),
  'page of the list',
);
