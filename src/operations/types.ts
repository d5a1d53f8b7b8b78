/**
 * The shape of one catalog entry (DESIGN "The catalog is the spine"). The router, help,
 * access checks, confirmation and audit all read these fields; nothing about an operation is
 * declared anywhere else.
 */
import type { z } from 'zod';
import type { types } from '@slack/bolt';
import type { CloudClient } from '../cloud/cloud-client.js';
import type { Clock } from '../clock.js';

export type Block = types.KnownBlock;

/**
 * What an operation may do, from least to most dangerous (issue 6 maps roles onto these):
 * read — look; change — modify without loss; billing — spend money or see invoices;
 * destroy — lose data or access; secret — see a credential.
 */
export type Tier = 'read' | 'change' | 'billing' | 'destroy' | 'secret';

/** A rendered answer: `text` is the notification/fallback text, `blocks` the Block Kit body. */
export interface Reply {
  text: string;
  blocks: Block[];
}

export type ArgKind =
  /** `<server>`: one word, in order. */
  | 'positional'
  /** `<name…>`: every remaining word, joined by spaces. */
  | 'rest'
  /** `--page 2` or `--page=2`. */
  | 'flag'
  /** `--watch`: present or not. */
  | 'switch';

export interface ArgSpec<S extends z.ZodType = z.ZodType> {
  kind: ArgKind;
  /** Parses the raw word(s) (a string; `true` for a present switch; undefined when absent). */
  schema: S;
  /** How usage shows the value, e.g. `server` for `<server>` or `N` for `--page N`. */
  placeholder: string;
  description: string;
}

export type ArgSpecs = Record<string, ArgSpec>;
export type ArgsOf<S extends ArgSpecs> = { [K in keyof S]: z.output<S[K]['schema']> };

/** What the cloud call of an operation gets. */
export interface RunContext {
  cloud: CloudClient;
  clock: Clock;
  signal?: AbortSignal;
}

/** What a renderer gets besides the result: the moment to measure "3 hours ago" from. */
export interface ViewContext {
  now: number;
}

export interface Operation<S extends ArgSpecs = ArgSpecs, R = unknown> {
  /** `resource.verb`, e.g. `server.status`. */
  id: string;
  resource: string;
  verb: string;
  summary: string;
  tier: Tier;
  args: S;
  /** One zod object over every argument, derived from `args`. */
  schema: z.ZodType<ArgsOf<S>>;
  /** Sends a change to the cloud (POST/PATCH/DELETE); reads are safe to repeat. */
  mutates: boolean;
  /** The answer goes to the requester only (reads, secrets). */
  ephemeral: boolean;
  /** The result holds a secret: never logged, never posted to a channel. */
  secret: boolean;
  run(ctx: RunContext, args: ArgsOf<S>): Promise<R>;
  render(result: R, args: ArgsOf<S>, view: ViewContext): Reply;
  /** For paginated lists: the argument that selects the page (Previous/Next buttons set it). */
  pageArg?: keyof S & string;
}

/** The catalog stores operations with their types erased. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, any>;
