/**
 * Runs one catalog operation for one person and turns whatever happens into a Reply: the
 * rendered result, a cloud refusal in plain words, or an internal error with a log reference.
 * Slash commands, pagination buttons and (later) modals and the local shell all come here, so
 * every path gets the same checks, logging and error text.
 */
import { randomBytes } from 'node:crypto';
import { cloudFailureLogWords, isCloudApiError } from '../cloud/errors.js';
import type { CloudAccounts } from '../cloud/accounts.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { describeCloudError } from '../views/cloud-error-text.js';
import { lookedUp } from '../operations/looked-up.js';
import { listPaging } from '../operations/command-text.js';
import type { AnyOperation, RunContext, WatchControl } from '../operations/types.js';
import type { Reply } from '../views/types.js';
import { auditEntry } from '../audit/entry.js';
import type { Auditor } from '../domain/audit-entry.js';
import { rememberSecretsIn } from '../access/secrets.js';
import { buildCloudError, buildInternalError, buildStoreUnavailable } from '../views/error-views.js';
import { isStoreUnavailable } from '../store/errors.js';
import { withAccount } from '../views/account-label.js';
import type { KnownResourceStore } from '../store/known-types.js';
import { resolveNames } from './resolve-names.js';
import { rememberAnswer } from './name-steps.js';
import { buildCloudRefusal } from '../views/click-views.js';
import { RefusedByRecord } from './guard.js';
import { startDeadline } from '../deadline.js';

export interface RunDeps {
  /** The clients of the configured accounts: the operation runs on the one access control chose. */
  accounts: Pick<CloudAccounts, 'client'>;
  /** The account's name where replies should show it (several accounts declared), else undefined. */
  accountLabel?: (account: string) => string | undefined;
  /** The account of records written before accounts (watch lists name it). */
  defaultAccount?: () => string;
  /** Channel subscriptions (issue 13), where the bot runs its monitor. */
  subscriptions?: RunContext['subscriptions'];
  /** Maintenance windows (issue 25), where the bot runs its monitor. */
  maintenance?: RunContext['maintenance'];
  /** What `/cloud policy` reads. */
  policy?: RunContext['policy'];
  /** The channels' aliases (`/cloud alias`); the slash command expands them before parsing. */
  aliases?: RunContext['aliases'];
  /** Schedules (`/cloud schedule`), where the bot runs its scheduler. */
  schedules?: RunContext['schedules'];
  clock: Clock;
  logger: Logger;
  watches?: WatchControl;
  auditor?: Auditor;
  /** Upper bound on one operation, retries included (default 25 s). */
  operationTimeoutMs?: number;
  /** Servers, groups and workers seen so far: names resolve here, answers are remembered here. */
  known?: KnownResourceStore;
}

export interface Actor {
  userId: string;
  channelId?: string;
  teamId?: string;
  /** A schedule's run (issue 25): its audit entry says "scheduled by …". */
  scheduleId?: string;
  /** What ran it besides a person typing (a workflow step names its workflow): the audit entry's detail. */
  via?: string;
}

export interface RunOutcome {
  reply: Reply;
  ok: boolean;
  /** Cloud error code, when the cloud refused. */
  errorCode?: string;
  /** The arguments it ran with: names replaced by ids (a `--watch` follows these). */
  args?: Record<string, unknown>;
  /** The cloud's answer, on success (a workflow step reads its outputs from it). */
  result?: unknown;
}

export async function runOperation(
  deps: RunDeps,
  op: AnyOperation,
  typed: Record<string, unknown>,
  actor: Actor,
  /** The account access control admitted (its client runs the operation). */
  account: string,
): Promise<RunOutcome> {
  const started = deps.clock.now();
  let args = typed;
  const log = deps.logger.child({ op: op.id, user: actor.userId, channel: actor.channelId, account });
  const onCloud = op.scope === 'cloud';
  const label = onCloud ? deps.accountLabel?.(account) : undefined;
  const named = deps.accountLabel?.(account) !== undefined ? deps.defaultAccount?.() : undefined;
  const deadline = startDeadline(deps.operationTimeoutMs ?? 25_000);
  const signal = deadline.signal;
  const audit = (outcome: 'succeeded' | 'failed', errorCode: string | null) =>
    deps.auditor?.record(
      auditEntry({
        op,
        userId: actor.userId,
        channelId: actor.channelId,
        account: onCloud ? account : null,
        args,
        outcome,
        errorCode,
        durationMs: deps.clock.now() - started,
        ...(actor.scheduleId ? { detail: `scheduled by ${actor.userId} (schedule ${actor.scheduleId})` } : actor.via ? { detail: actor.via } : {}),
      }),
    ) ?? Promise.resolve();
  try {
    // A name typed for an id becomes the id seen on this account, before any request.
    const resolved = await resolveNames(deps.known, op, typed, account);
    if (!resolved.ok) {
      await audit('failed', 'UNKNOWN_NAME');
      return { reply: withAccount(buildCloudRefusal(op.command, resolved.message), label), ok: false, errorCode: 'UNKNOWN_NAME' };
    }
    args = resolved.args;
    const known = deps.known;
    const result: unknown = await op.run(
      {
        cloud: deps.accounts.client(account),
        clock: deps.clock,
        ...(deps.policy ? { policy: deps.policy } : {}),
        ...(deps.subscriptions ? { subscriptions: deps.subscriptions } : {}),
        ...(deps.maintenance ? { maintenance: deps.maintenance } : {}),
        ...(deps.aliases ? { aliases: deps.aliases } : {}),
        ...(deps.schedules ? { schedules: deps.schedules } : {}),
        account,
        signal,
        ...(deps.watches ? { watches: deps.watches } : {}),
        ...(deps.auditor ? { audit: deps.auditor } : {}),
        ...(known ? { known: { list: (kind, limit) => known.list(account, kind, limit) } } : {}),
        actor,
      },
      args,
    );
    rememberAnswer(known, op, result, args, { account, now: deps.clock.now() }, (error) => log.warn('could not remember what the answer showed', { error }));
    if (op.secret) rememberSecretsIn(deps.logger, result);
    // A status answer says when what it shows is in a maintenance window (the windows are data for the view).
    const windows = deps.maintenance && op.verb === 'status' ? (await deps.maintenance.list(actor.channelId)).filter((w) => w.account === account) : undefined;
    const reply = withAccount(
      op.render(result, args, {
        now: deps.clock.now(),
        account,
        ...(named ? { namedDefaultAccount: named } : {}),
        ...(windows?.length ? { maintenance: windows } : {}),
        // A list shown a page at a time names the next page's command, and the account when several are declared.
        ...(op.pageArg ? { pages: listPaging(op, args, { account, named: deps.accountLabel?.(account) !== undefined }) } : {}),
      }),
      label,
    );
    // The bot's own refusal (a bad time, a taken name, an id not found): nothing was done.
    const declined = op.declined?.(result);
    log.info(declined ? 'operation declined' : 'operation succeeded', { ms: deps.clock.now() - started, ...(declined ? { code: declined } : {}) });
    await audit(declined ? 'failed' : 'succeeded', declined ?? null);
    return { reply, ok: true, args, result };
  } catch (e) {
    const ms = deps.clock.now() - started;
    // Already audited as refused where the record was checked; said as it was decided.
    if (e instanceof RefusedByRecord) {
      log.info('operation refused by the record it acts on', { ms });
      return { reply: e.reply, ok: false };
    }
    if (isCloudApiError(e)) {
      log.warn(`operation ${cloudFailureLogWords(e)}`, { ms, code: e.code, status: e.status });
      await audit('failed', e.code);
      const text = describeCloudError(e, { mutation: op.mutates, lookedUp: lookedUp(op, args) });
      return { reply: withAccount(buildCloudError(op.command, text), label), ok: false, errorCode: e.code };
    }
    const ref = randomBytes(4).toString('hex');
    if (isStoreUnavailable(e)) {
      log.error('the store could not answer; the person is told', { ms, ref, storeUnavailable: e.reason, error: e });
      await audit('failed', e.code);
      return { reply: buildStoreUnavailable(op.command, ref), ok: false, errorCode: e.code };
    }
    log.error('operation failed inside the bot', { ms, ref, error: e });
    await audit('failed', 'INTERNAL');
    return { reply: buildInternalError(op.command, ref), ok: false, errorCode: 'INTERNAL' };
  } finally {
    deadline.clear();
  }
}
