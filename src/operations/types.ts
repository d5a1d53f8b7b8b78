/**
 * The shape of one catalog entry (DESIGN "The catalog is the spine"). The router, help,
 * access checks, confirmation and audit all read these fields; nothing about an operation is
 * declared anywhere else.
 */
import type { MaintenanceKind, MaintenanceWindow } from '../store/maintenance-store.js';
import type { z } from 'zod';
import type { Scope, Tier } from '../domain/tier.js';
import type { CloudClient } from '../cloud/cloud-client.js';
import type { Clock } from '../clock.js';
import type { WatchKind, WatchRecord } from '../store/watch-store.js';
import type { Auditor } from '../domain/audit-entry.js';
import type { PolicyExplanation, Refusal } from '../domain/access-verdict.js';
import type { SubscriptionKind, SubscriptionRecord } from '../store/monitor-types.js';
import type { KnownEntry, KnownKind, KnownResource } from '../store/known-types.js';
import type { AliasRecord } from '../store/alias-types.js';

import type { Reply } from '../views/types.js';
import type { Mrkdwn } from '../views/mrkdwn.js';
import type { SuccessLook } from '../views/status-views.js';
import type { ViewContext } from '../views/types.js';
import type { ModalField as FormField, ModalSpec as FormSpec } from '../views/modal-spec.js';
import type { AliasCreateOutcome, AliasRemoveOutcome } from '../views/alias-views.js';
import type { ScheduleCancelOutcome, ScheduleCreateOutcome } from '../views/schedule-views.js';
import type { ScheduleRecord } from '../store/schedule-types.js';


/** A modal's fields, whose choices may be read from the cloud when it opens. */
export type ModalField = FormField<RunContext>;
export type ModalSpec = FormSpec<RunContext>;

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
  /** The argument may also be a name the bot has seen (resolve-names.ts turns it into the id). */
  names?: KnownKind;
  /** A word typed before the value, shown in usage (`=` in `/cloud alias create <name> = <command…>`). */
  lead?: string;
  /**
   * What the value names when the cloud answers NOT_FOUND, and the command that lists such
   * things (operations/looked-up.ts); `{name}` in `listedBy` is another argument as given.
   */
  lookup?: { what: string; listedBy: string; lists: string };
  /**
   * What the audit trail shows of the parsed value, where that is not what was typed (a
   * `<when>` parsed into a structure is shown as its words); default: the value as parsed.
   * Never asked of a secret argument: those are masked first (audit/entry.ts).
   */
  audited?(value: z.output<S>): unknown;
}

export type ArgSpecs = Record<string, ArgSpec>;
export type ArgsOf<S extends ArgSpecs> = { [K in keyof S]: z.output<S[K]['schema']> };

/** What a watch needs to know to follow a resource. */
export interface WatchTarget {
  kind: WatchKind;
  resource: string;
}

/**
 * The bot's watches, for the `watch` commands, as this person may see and stop them (each
 * decided in the watch's channel, on its account: app/watch-control.ts).
 */
export interface WatchControl {
  /** Recent watches this person may read: those of `channelId`, or every channel's (undefined). */
  list(userId: string, channelId: string | undefined): Promise<WatchRecord[]>;
  /** The watch stopped, or undefined when none runs by that id; a refusal is thrown (and answered) by the control. */
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
  actor?: { userId: string; channelId?: string; teamId?: string };
  /** The account the operation runs on (subscriptions remember it). */
  account?: string;
  /** Channel subscriptions and alerts (issue 13), where the bot runs its monitor. */
  subscriptions?: SubscriptionControl;
  /** The policy in force, for `/cloud policy`. */
  policy?: { explain(channelId: string | undefined, userId?: string): Promise<PolicyExplanation> };
  /** What the bot has seen on this account (`/cloud server known`). */
  known?: { list(kind: KnownKind, limit: number): Promise<KnownResource[]> };
  /** The channel's aliases, for the `alias` commands. */
  aliases?: AliasControl;
  /** Schedules (`/cloud schedule`), where the bot runs its scheduler. */
  schedules?: ScheduleControl;
  /** Maintenance windows (issue 25), where the bot runs its monitor. */
  maintenance?: MaintenanceControl;
}

/** Schedules (issue 25): the command is checked as the person at creation, and again at each run. */
export interface ScheduleControl {
  create(input: { userId: string; channelId: string; teamId?: string; command: string; when: string; tz?: string; keep?: number }): Promise<ScheduleCreateOutcome>;
  /** Open schedules of a channel (every channel: undefined). */
  list(channelId: string | undefined): Promise<ScheduleRecord[]>;
  /**
   * Every channel's open schedules this person may be shown: those they made, and those of a
   * channel where they may list schedules (`--all`, App Home).
   */
  listVisible(userId: string): Promise<ScheduleRecord[]>;
  cancel(id: string, userId: string, channelId: string): Promise<ScheduleCancelOutcome>;
  /** `2026-12-01 03:00 Europe/Berlin`. */
  zoneTime(at: number, tz: string): string;
  /** The person's Slack time zone; UTC when Slack gives none (maintenance windows read times in it too). */
  zoneOf(userId: string): Promise<string>;
}

/** Maintenance windows of the bot's channels: alerts held back until they end, then one summary. */
export interface MaintenanceControl {
  start(input: { channelId: string; account: string | null; kind: MaintenanceKind; resource: string; createdBy: string; endsAt: number }): Promise<MaintenanceWindow>;
  /** A channel's windows in force now (a window holds back its own channel's alerts only); every channel's without one. */
  list(channelId?: string): Promise<MaintenanceWindow[]>;
  /** Ends a window of this channel early; its summary follows at the monitor's next pass. */
  end(id: string, channelId: string, userId: string): Promise<{ kind: 'unknown' } | { kind: 'over' | 'ended'; window: MaintenanceWindow }>;
}

/** A channel's aliases (issue 14): checked against the catalog, deleted by their creator or an admin. */
export interface AliasControl {
  create(input: { channelId: string; teamId?: string; userId: string; name: string; command: string }): Promise<AliasCreateOutcome>;
  get(channelId: string, name: string): Promise<AliasRecord | undefined>;
  list(channelId: string): Promise<AliasRecord[]>;
  remove(name: string, channelId: string, userId: string): Promise<AliasRemoveOutcome>;
}

/** A read the asker (or the channel) may not run, so nothing that shows it is set up. */
export interface ReadRefusal {
  refusal: Refusal;
  /** The read's command (`/cloud account invoices`) and tier, for the refusal's words. */
  command: string;
  tier: Tier;
}

/** What `subscribe` came to: refused (nothing stored, nothing sent), or the subscription and what holds now. */
export type SubscribeOutcome =
  | { refused: ReadRefusal }
  | {
      record: SubscriptionRecord;
      created: boolean;
      /** Conditions that hold now (an alert opens once the monitor confirms them); undefined for a digest. */
      holds?: { condition: string; detail: Record<string, unknown> }[];
      /** A digest here leaves out invoices: the channel may not read them. */
      invoicesHidden?: boolean;
    };

/** Subscriptions of a channel, for the `subscribe`, `subscriptions`, `unsubscribe` and `mute` commands. */
export interface SubscriptionControl {
  /**
   * Checks that the asker may run the subscription's equivalent read here (a refusal stores
   * nothing), reads the resource through `cloud` (it exists, this token sees it, and what holds
   * now), then stores it.
   */
  add(input: {
    channelId: string;
    account: string;
    kind: SubscriptionKind;
    resource: string;
    params: Record<string, unknown>;
    userId: string;
    cloud?: CloudClient;
    signal?: AbortSignal;
  }): Promise<SubscribeOutcome>;
  /** The channel's subscriptions and how many alerts each has firing. */
  list(channelId: string): Promise<{ subs: SubscriptionRecord[]; firing: Record<string, number> }>;
  /** Removes one of this channel's subscriptions; undefined when there is none by that id here. */
  remove(id: string, channelId: string): Promise<SubscriptionRecord | undefined>;
  /** Mutes (until null: unmutes) this channel's subscriptions matching `target` (an id, a resource, or a kind). */
  mute(target: string, channelId: string, until: number | null): Promise<SubscriptionRecord[]>;
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
  scope: Scope;
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
  /**
   * The bot's own entries whose answer may be a refusal (a bad time, a taken name, an id not
   * found): the error code when `result` says nothing was done, so the audit records `failed`
   * with it rather than `succeeded`.
   */
  declined?(result: R): string | undefined;
  /** For paginated lists: the argument that selects the page (Previous/Next buttons set it). */
  pageArg?: keyof S & string;
  /** Present on operations that change something (issue: changes from Slack). */
  change?: ChangeSpec<ArgsOf<S>, R>;
  /** A read that `--watch` can follow: what to watch for these arguments. */
  watchable?(args: ArgsOf<S>): WatchTarget;
  /**
   * The servers, groups and workers this answer showed (ids, uuids, names; never a secret),
   * remembered after success so names can stand for ids later.
   */
  remember?(result: R, args: ArgsOf<S>): KnownEntry[];
}

/** What a precheck learned: facts for the confirmation text, or a reason to refuse at once. */
export interface Precheck {
  refuse?: Mrkdwn;
  /** The argument the refusal is about: a form asks for it again, the refusal under it. */
  field?: string;
  facts?: Record<string, unknown>;
}

/** What became of a change's private reply: sent to the requester, or withheld (they may not read it now, or that could not be checked). */
export type SecretTold = 'sent' | 'withheld' | 'unchecked';

/** A field-keyed verdict beyond the per-argument schemas (e.g. a firewall rule as a whole). */
export type CheckResult<A> = { ok: true; args: A } | { ok: false; fieldErrors: Record<string, string> };

export interface ChangeSpec<A, R> {
  /** Ask for a Confirm click before acting: destroy and spending operations. */
  confirm: boolean;
  /** Sends nothing to the cloud (a schedule's Confirm card arms the bot's own schedule): no request is described or shown. */
  local?: true;
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
  /**
   * What the channel may see of the result: no secrets. Stored with the record. `told.secret`:
   * whether the private reply (below) went to the requester — `withheld` when they may not read
   * it there now, `unchecked` when Slack could not tell whether they may — so the summary says
   * where it went, truthfully.
   */
  summarize(result: R, args: A, told?: { secret?: SecretTold }): { text: Mrkdwn; details?: Record<string, string | number> };
  /**
   * What a workflow step outputs after success (issue 23): ids, names and addresses, never a
   * secret. Stored with the record, so a step resumed after a restart still has them.
   */
  outputs?(result: R, args: A): Record<string, string | number>;
  /**
   * A success that did not do what the title asks (a schedule's Confirm that came too late arms
   * nothing): the status message's heading instead of "done", and the audit entry's detail,
   * read from the outputs stored with the record (so the message stays a view of it).
   */
  succeededAs?(outputs: Record<string, string | number>): (SuccessLook & { audit: string }) | undefined;
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
