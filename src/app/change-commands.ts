/**
 * A change typed as a command: open its form when inputs are missing (or none were given and
 * the form is the natural way in), otherwise hand it to the change flow. The form opens at
 * once with a loading view, because a trigger_id lives 3 s and the choices come from the cloud.
 */
import { isCloudApiError } from '../cloud/errors.js';
import type { CloudAccounts } from '../cloud/accounts.js';
import type { Clock } from '../clock.js';
import type { ChangeFlow, ScheduledRun, StartOutcome } from '../confirm/change-types.js';
import type { Logger } from '../log.js';
import { describeCloudError } from '../views/cloud-error-text.js';
import type { AnyOperation } from '../operations/types.js';
import type { ModalOption } from '../views/modal-spec.js';
import type { Reply } from '../views/types.js';
import { SlackApiError, type SlackApi } from '../chat/slack-api.js';
import { buildFormNotFilled, buildFormNotOpened } from '../views/slack-failure-views.js';
import { buildChangeModal, buildChoicesUnreadable, buildLoadingModal } from '../views/modal-views.js';
import { buildFieldErrors, FORM_VALUES_TOO_LONG } from '../views/click-views.js';

/** The change flow's dedupe key of a typed (or scheduled) command: one record per trigger. */
export const commandDedupeKey = (triggerId: string): string => `cmd:${triggerId}`;

export interface ChangeCommandDeps {
  flow: ChangeFlow;
  slack: SlackApi;
  accounts: Pick<CloudAccounts, 'client'>;
  clock: Clock;
  logger: Logger;
}

/** A schedule's run of a change: sent as confirmed at scheduling; `started` hears how the start went. */
export interface ScheduledInput {
  run: ScheduledRun;
  started(outcome: StartOutcome): void;
}

export interface ModalMetadata {
  op: string;
  channel: string;
  given: Record<string, unknown>;
  /** The account the form's change goes to (access control checks it again at submission). */
  account?: string;
  /** Fields the cloud refused last time, shown under them. */
  notes?: Record<string, string>;
}

export interface Invocation {
  userId: string;
  channelId: string;
  teamId?: string;
  triggerId: string;
  /** The account access control admitted. */
  account: string;
}

/** Whether the missing arguments are all asked by the form (else the usage is the answer). */
export function formCovers(op: AnyOperation, names: string[]): boolean {
  const fields = new Set(op.change?.modal?.fields.map((f) => f.name) ?? []);
  return names.every((n) => fields.has(n));
}

/**
 * Opens `op`'s form: `given` as typed (its initial values, kept in the form's metadata),
 * `values` the same arguments checked by their schemas (what the form's intro describes).
 */
export async function openChangeForm(
  deps: ChangeCommandDeps,
  op: AnyOperation,
  form: { given: Record<string, unknown>; values: Record<string, unknown> },
  inv: Invocation,
  notes?: Record<string, string>,
): Promise<Reply | undefined> {
  const { given } = form;
  const spec = op.change!.modal!;
  const metadata = JSON.stringify({ op: op.id, channel: inv.channelId, given, account: inv.account, ...(notes ? { notes } : {}) } satisfies ModalMetadata);
  if (metadata.length > 3000) return FORM_VALUES_TOO_LONG;
  // Slack failing views.open (expired_trigger_id, a 5xx, no answer) is told through the
  // response_url: the caller sends the Reply returned here.
  let opened: { id: string; hash?: string };
  try {
    opened = await deps.slack.openView(inv.triggerId, buildLoadingModal(spec.title, metadata));
  } catch (e) {
    if (!(e instanceof SlackApiError)) throw e;
    deps.logger.warn('could not open a form', { op: op.id, error: e });
    return buildFormNotOpened(e.code, e.failure === 'unavailable');
  }
  try {
    await fillChangeForm(deps, op, form, opened, metadata, notes, inv.account);
  } catch (e) {
    if (!(e instanceof SlackApiError)) throw e;
    deps.logger.warn('could not fill in a form', { op: op.id, error: e });
    return buildFormNotFilled(e.code, e.failure === 'unavailable');
  }
  return undefined;
}

async function fillChangeForm(
  deps: ChangeCommandDeps,
  op: AnyOperation,
  { given, values }: { given: Record<string, unknown>; values: Record<string, unknown> },
  opened: { id: string; hash?: string },
  metadata: string,
  notes: Record<string, string> | undefined,
  account: string,
): Promise<void> {
  const spec = op.change!.modal!;
  const options: Record<string, ModalOption[]> = {};
  try {
    // The choices of every field at once: a form waits for one cloud round trip, not one per field.
    const ctx = { cloud: deps.accounts.client(account), clock: deps.clock };
    const loads = spec.fields.flatMap((f) => (typeof f.options === 'function' ? [f.options(ctx).then((o) => [f.name, o] as const)] : []));
    for (const [name, o] of await Promise.all(loads)) options[name] = o;
  } catch (e) {
    if (!isCloudApiError(e)) throw e;
    const t = describeCloudError(e);
    await deps.slack.updateView(opened.id, buildChoicesUnreadable(spec.title, t.summary, t.nextStep));
    return;
  }
  const initial = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : typeof v === 'boolean' ? v : String(v)]));
  const described = op.change!.describe(values as never, {});
  const view = buildChangeModal({ spec, options, initial, intro: described.title, privateMetadata: metadata, ...(notes ? { fieldNotes: notes } : {}) });
  await deps.slack.updateView(opened.id, view, opened.hash);
}

/** Everything a StartOutcome means for the person who typed the command. */
export function outcomeReply(outcome: StartOutcome): Reply | undefined {
  switch (outcome.kind) {
    case 'tell':
      return outcome.reply;
    case 'invalid':
      return buildFieldErrors(outcome.fieldErrors, 'cloud');
    case 'posted':
      return outcome.unseen; // else the status message in the channel says it all
    case 'duplicate':
      return undefined;
  }
}

/** A typed change, started: what the person who typed it is told (nothing when its status message says it all). */
export async function runChangeCommand(
  deps: ChangeCommandDeps,
  op: AnyOperation,
  args: Record<string, unknown>,
  inv: Invocation & { dryRun: boolean; scheduled?: ScheduledInput },
): Promise<Reply | undefined> {
  const checked = op.change!.check?.(args as never);
  // Named as typed: a flag's error reads `--repo`, like the errors of a flag's own value (`--port`).
  if (checked && !checked.ok) return buildFieldErrors(asTyped(op, checked.fieldErrors), 'check');
  const finalArgs = checked?.ok ? (checked.args as Record<string, unknown>) : args;
  const outcome = await deps.flow.start({
    op,
    args: finalArgs,
    userId: inv.userId,
    channelId: inv.channelId,
    account: inv.account,
    ...(inv.teamId ? { teamId: inv.teamId } : {}),
    dedupeKey: commandDedupeKey(inv.triggerId),
    dryRun: inv.dryRun,
    ...(inv.scheduled ? { scheduled: inv.scheduled.run } : {}),
  });
  inv.scheduled?.started(outcome);
  return outcomeReply(outcome);
}

/** Field errors keyed by flag name, as typed on the command line (`--repo`); other keys as they are. */
function asTyped(op: AnyOperation, errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([name, message]) => [op.args[name]?.kind === 'flag' ? `--${name}` : name, message]));
}
