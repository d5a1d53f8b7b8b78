/**
 * The shape of one catalog entry (DESIGN "The catalog is the spine"). The router, help,
 * access checks, confirmation and audit all read these fields; nothing about an operation is
 * declared anywhere else.
 */
import type { z } from 'zod';
import type { CloudClient } from '../cloud/cloud-client.js';
import type { Clock } from '../clock.js';
import type { WatchKind, WatchRecord } from '../store/watch-store.js';
import type { Auditor } from '../audit/types.js';

import type { Block, Reply } from '../views/types.js';
import type { Mrkdwn } from '../views/mrkdwn.js';

export type { Block, Reply };

/**
 * What an operation may do, from least to most dangerous (issue 6 maps roles onto these):
 * read — look; change — modify without loss; billing — spend money or see invoices;
 * destroy — lose data or access; secret — see a credential.
 */
export type Tier = 'read' | 'change' | 'billing' | 'destroy' | 'secret';

export type ArgKind =
  /** `<server>`: one word, in order. */
  | 'positional'
  /** `<name…>`: every remaining word, joined by spaces. */
  | 'rest'
  /** `--page 2` or `--page=2`. */
  | 'flag'
  /** `--watch`: present or not. */
  | 'switch'
  /** Given only through the operation's modal, never on the command line (a password). */
  | 'modal';

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

/** What a watch needs to know to follow a resource. */
export interface WatchTarget {
  kind: WatchKind;
  resource: string;
}

/** The bot's watches, for the `watch` commands. */
export interface WatchControl {
  list(): Promise<WatchRecord[]>;
  cancel(id: string, userId: string): Promise<WatchRecord | undefined>;
}

/** What the cloud call of an operation gets. */
export interface RunContext {
  cloud: CloudClient;
  clock: Clock;
  signal?: AbortSignal;
  /** Present where the bot runs watches. */
  watches?: WatchControl;
  /** The audit trail, for `/cloud audit`. */
  audit?: Pick<Auditor, 'list'>;
  /** Who is acting (for operations on the bot's own state, like cancelling a watch). */
  actor?: { userId: string; channelId?: string };
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
  /** `/cloud server reinstall`: how people type it (derived once, in define.ts). */
  command: string;
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
  /** Present on operations that change something (issue: changes from Slack). */
  change?: ChangeSpec<ArgsOf<S>, R>;
  /** A read that `--watch` can follow: what to watch for these arguments. */
  watchable?(args: ArgsOf<S>): WatchTarget;
}

/**
 * The request a change sends, as shown by `--dry-run`, in the status message and the audit
 * trail: read from the entry's own `run` (change-request.ts), never written by hand.
 */
export interface CloudRequest {
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
}

/** What a precheck learned: facts for the confirmation text, or a reason to refuse at once. */
export interface Precheck {
  refuse?: Mrkdwn;
  facts?: Record<string, unknown>;
}

export interface ModalOption {
  value: string;
  text: string;
}

export interface ModalField {
  /** The argument it fills; also the block and action id. */
  name: string;
  label: string;
  kind: 'text' | 'multiline' | 'select' | 'multi_select' | 'checkbox';
  optional?: boolean;
  hint?: string;
  placeholder?: string;
  maxLength?: number;
  /** Fixed choices, or choices read from the cloud when the modal opens. */
  options?: ModalOption[] | ((ctx: RunContext) => Promise<ModalOption[]>);
  /** At most this many choices in a multi-select (reinstall's SSH keys: 20). */
  maxSelected?: number;
}

export interface ModalSpec {
  title: string;
  submit: string;
  fields: ModalField[];
  /** Open the modal when the command gives no flags, even if nothing required is missing. */
  whenBare?: boolean;
}

/** A field-keyed verdict beyond the per-argument schemas (e.g. a firewall rule as a whole). */
export type CheckResult<A> = { ok: true; args: A } | { ok: false; fieldErrors: Record<string, string> };

export interface ChangeSpec<A, R> {
  /** Ask for a Confirm click before acting: destroy and spending operations. */
  confirm: boolean;
  /** Arguments that are secrets: sealed in the store, masked wherever shown. */
  secretArgs?: string[];
  /** Looks before asking: refuses early (locked backup, primary IP, no balance) or gathers facts. */
  precheck?(ctx: RunContext, args: A): Promise<Precheck>;
  /** Exactly what will happen, and what is lost or charged. */
  describe(args: A, facts: Record<string, unknown>): { title: Mrkdwn; lines: Mrkdwn[] };
  /** Text the confirmer must type (a reinstall wipes the disk: its hostname). */
  typeToConfirm?(args: A, facts: Record<string, unknown>): string | undefined;
  /** Cross-field validation after the per-argument schemas. */
  check?(args: A): CheckResult<A>;
  /** What the channel may see of the result: no secrets. Stored with the record. */
  summarize(result: R, args: A): { text: Mrkdwn; details?: Record<string, string | number> };
  /** Shown to the requester only after success (a new root password). */
  privateReply?(result: R, args: A): Reply | undefined;
  /** Body field → argument, where they differ, so the cloud's field errors land on the form. */
  bodyToArg?: Record<string, string>;
  /** The security group to redeploy when the cloud answers HYPERVISOR_SYNC_FAILED. */
  syncGroup?(args: A): number;
  /** The watch to start once the change succeeded (a build, a reinstall). */
  watch?(result: R, args: A): WatchTarget | undefined;
  modal?: ModalSpec;
}

/** The catalog stores operations with their types erased. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, any>;
