/** The change flow's contract (change-flow.ts): its dependencies, a request, and what a start or a click comes to. Types only. */
import type { TraceSteps } from '../telemetry/index.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { Catalog } from '../operations/catalog.js';
import type { AnyOperation } from '../operations/types.js';
import type { Reply } from '../views/types.js';
import type { Sealer } from '../store/seal.js';
import type { OperationRecord, OperationStore } from '../store/types.js';
import type { WatchKind } from '../store/watch-store.js';
import type { SlackApi } from '../chat/slack-api.js';
import type { Mrkdwn } from '../views/mrkdwn.js';
import type { Auditor } from '../domain/audit-entry.js';
import type { AccountDeps } from '../cloud/accounts.js';

/** What a click or a recheck may be refused with. */
export type ClickAction = 'confirm' | 'approve' | 'cancel' | 'retry' | 'undo';

/**
 * A refusal that is no verdict: a user group that may give the right could not be read (Slack
 * did not answer), so whether the person may is unknown. `text` tells them so.
 */
export interface RightsUnknown {
  text: Mrkdwn;
  unread: readonly string[];
}

export interface ChangeFlowDeps extends AccountDeps {
  store: OperationStore;
  clock: Clock;
  logger: Logger;
  slack: SlackApi;
  sealer: Sealer;
  catalog: Catalog;
  /** How long a Confirm button works (default 10 minutes). */
  confirmTtlMs?: number;
  /** Every request, outcome, cancellation and expiry is recorded here. */
  auditor?: Auditor;
  /**
   * Records a watch after a change that asks for one (a build, a reinstall), held (not polled)
   * until `beginWatch` — after the change's own final edit — or until the watcher's lease passed.
   */
  startWatch?: (input: { kind: WatchKind; resource: string; account: string | null; channelId: string; threadTs: string | null; requestedBy: string; operationId: string; held: true }) => Promise<{ id: string }>;
  beginWatch?: (id: string) => Promise<void>;
  /**
   * Whether this person may confirm, approve, cancel or retry: undefined when allowed, else what
   * to tell them. Access control replaces the default (the requester only); an approval is an
   * admin's. A RightsUnknown when only an unread user group stands in the way. `click`: a person
   * clicked (a refusal is audited, as a typed command's is); else the bot checks again by itself.
   */
  authorize?: (record: OperationRecord, op: AnyOperation, userId: string, action: ClickAction, click?: boolean) => Promise<Mrkdwn | RightsUnknown | undefined>;
  /**
   * Whether a change's private reply (a reinstall's new root password: a credential) may go to
   * its requester, in its channel on its account, now — they may have lost the right while it
   * waited, or the channel may keep credentials out. `unchecked`: Slack could not tell. Absent:
   * always. A refusal is audited by whoever decides it.
   */
  maySeeSecret?: (record: OperationRecord) => Promise<'yes' | 'no' | 'unchecked'>;
  /** How long a change confirmed here waits for an Undo before it is sent (ms; 0: sent at once). The policy's undo_delay. */
  undoDelay?: (op: AnyOperation, where: { channelId: string; account: string | null }) => number;
  /** Whether a change needs a second admin's approval instead of the requester's Confirm, here, on its account. */
  needsApproval?: (op: AnyOperation, where: { channelId: string; account: string | null }) => boolean;
  /**
   * A change still confirmed or running this long after its last move was left by a process
   * that died (any replica's); `recoverInterrupted` marks it failed. Default 2 minutes.
   */
  staleRunningMs?: number;
  /** The core's name steps (app/name-steps.ts): names resolve before a start, answers are remembered after. */
  names: ChangeNames;
  /** Spans of a change's send, linked to the request that made it (issue 24); absent or off, none. */
  tracing?: TraceSteps;
}

/** Names over the servers, groups and workers seen so far; given by the core, which owns them. */
export interface ChangeNames {
  /** A name typed for an id becomes the id seen on this account, or a refusal to show. */
  resolve(op: AnyOperation, args: Record<string, unknown>, account: string | null): Promise<{ ok: true; args: Record<string, unknown> } | { ok: false; message: Mrkdwn }>;
  /** What an answer showed is written down on its own; a failure only reaches `onError`. */
  remember(op: AnyOperation, result: unknown, args: Record<string, unknown>, where: { account: string | null; now: number }, onError: (error: unknown) => void): void;
}

export interface ChangeRequest {
  op: AnyOperation;
  args: Record<string, unknown>;
  userId: string;
  channelId: string;
  /** The account access control admitted; undefined: the default one. */
  account?: string;
  teamId?: string;
  /** Same key for a retried delivery (the slash command's trigger_id, a modal's view id). */
  dedupeKey?: string;
  dryRun?: boolean;
  /**
   * A schedule's run (issue 25): confirmed (and approved where needed) when it was scheduled,
   * so it is sent without a Confirm; its record and audit entries say "scheduled by".
   */
  scheduled?: ScheduledRun;
  /**
   * Started by a workflow step (issue 23): a person is always asked first, whatever the
   * catalog's `confirm`, and the record (so its audit entries) names the workflow.
   */
  via?: { workflow: string };
  /**
   * The operations this change is judged as instead of itself (confirm/judged-as.ts): a
   * schedule's card asks for approval, and lets who click, as the command it arms would (and
   * backup delete, with `--keep`), not as its own tier would. Stored on the record by id.
   */
  judgedAs?: AnyOperation[];
}

export interface ScheduledRun {
  scheduleId: string;
  /** Who confirmed (and who approved) the schedule at creation. */
  confirmedBy: string;
  approvedBy?: string;
}

export type StartOutcome =
  /**
   * Something for the requester only: a dry run, a refusal, an invitation hint. `fieldErrors`:
   * the refusal is about these arguments (plain text), so a form asks for them again.
   */
  | { kind: 'tell'; reply: Reply; fieldErrors?: Record<string, string> }
  /** A retried delivery: the first one is handling it (its record, when the store gave it). */
  | { kind: 'duplicate'; record?: OperationRecord }
  /**
   * The status message is up; waiting for a click, or already done. `unseen`: the outcome,
   * for the requester, when the message could not be edited to show it.
   */
  | { kind: 'posted'; record: OperationRecord; unseen?: Reply }
  /** The cloud rejected fields (VALIDATION_ERROR) before anything changed: show them on the form. */
  | { kind: 'invalid'; fieldErrors: Record<string, string> };

/**
 * `tell`: a private answer to the clicker, made by a view. `show`: the same with a whole reply —
 * the outcome, when the status message in the channel could not be edited to show it.
 */
export type ClickOutcome =
  | { kind: 'tell'; text: Mrkdwn }
  | { kind: 'show'; reply: Reply }
  | { kind: 'type-to-confirm'; expected: string; what: Mrkdwn }
  | { kind: 'done' };

export interface ChangeFlow {
  start(req: ChangeRequest): Promise<StartOutcome>;
  /**
   * A digest of a change's arguments for a dedupe key: plain arguments hashed, secret ones only
   * through the sealer's keyed fingerprint, so a stored key never lets a password be guessed.
   */
  argsDigest(op: AnyOperation, args: Record<string, unknown>): string;
  confirm(recordId: string, userId: string, typed?: string): Promise<ClickOutcome>;
  cancel(recordId: string, userId: string): Promise<ClickOutcome>;
  retrySync(recordId: string, userId: string): Promise<ClickOutcome>;
  /**
   * Whether this person may still `action` this change here now, as the bot checks again by
   * itself (nothing is audited: the caller audits the outcome): undefined when they may, else what
   * they would be told, or a RightsUnknown when only a user group that could not be read stands
   * in the way. Judged as the record is (judged-as.ts), on its channel and account. A schedule's
   * run asks it of the admin who approved the schedule, on its Confirm card's record.
   */
  recheck(record: OperationRecord, userId: string, action: ClickAction): Promise<Mrkdwn | RightsUnknown | undefined>;
  /** Takes back a change waiting out its undo delay: nothing is sent. */
  undo(recordId: string, userId: string): Promise<ClickOutcome>;
  /** Sends the changes whose undo delay has ended (once, across replicas), and edits the countdown of the others. */
  sendDue(): Promise<number>;
  /** Pending records past their time: marked expired, messages edited. Returns how many. */
  expireDue(): Promise<number>;
  /** After a crash: records left confirmed/running are marked failed (their outcome is unknown). */
  recoverInterrupted(): Promise<number>;
  /**
   * Re-edits a failed change's status message to say how the bot handles the refusal (a
   * schedule's full backup_limit: "removing the oldest … and trying again"); undefined shows
   * the failure as it is again. A cancelled change's message is shown as it is now (a scheduled
   * run closed when taken over). The record is not changed.
   */
  retell(recordId: string, handling: Mrkdwn | undefined): Promise<void>;
}
