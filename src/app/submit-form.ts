/**
 * A change form submitted, from any surface: checked again (roles can change while a form is
 * open), its values validated against the entry's schema, and the change started. What the
 * form should show comes back as data; the surface maps it onto its form (Slack's
 * `response_action`, slack/register-changes.ts) and tells the person anything said later.
 */
import type { z } from 'zod';
import type { ChangeFlow, StartOutcome } from '../confirm/change-types.js';
import { validationFields } from '../confirm/start-change.js';
import type { Catalog } from '../operations/catalog.js';
import type { AnyOperation } from '../operations/types.js';
import type { ModalSpec } from '../views/modal-spec.js';
import type { Reply } from '../views/types.js';
import { plainIssue } from '../views/input-message.js';
import { buildFieldErrors, buildNote } from '../views/click-views.js';
import { md } from '../views/mrkdwn.js';
import type { ModalMetadata } from './change-commands.js';
import { admit, type GuardDeps } from './guard.js';

export interface FormDeps extends GuardDeps {
  flow: ChangeFlow;
  catalog: Catalog;
}

export interface FormInput {
  userId: string;
  teamId?: string;
  /** The form's id on its surface: the same form submitted again, corrected, is a new request. */
  formId: string;
  meta: ModalMetadata;
  /** The values typed, as the form's fields name them (each surface reads its own form). */
  values: (spec: ModalSpec) => Record<string, unknown>;
  /**
   * The fields the submitted form shows as inputs; a select with no choices is shown as text
   * only (views/modal-views.ts), and Slack refuses errors under a field it does not show.
   * Unset: every field of the spec.
   */
  shown?: readonly string[];
}

/** What the form shows now: errors under fields, or the form replaced by an answer. */
export type FormVerdict = { kind: 'errors'; errors: Record<string, string> } | { kind: 'replace'; title: string; reply: Reply };

export type FormAnswer =
  /** The form's operation is no longer known (an older bot opened it). */
  | { kind: 'gone' }
  | FormVerdict
  /** Started: `outcome` settles once the flow has refused, posted or asked; `verdict` reads it for the form. */
  | { kind: 'started'; channel: string; outcome: Promise<StartOutcome>; verdict(outcome: StartOutcome): FormVerdict | undefined };

export async function submitForm(deps: FormDeps, input: FormInput): Promise<FormAnswer> {
  const { meta } = input;
  const op = deps.catalog.byId(meta.op);
  const spec = op?.change?.modal;
  if (!op || !spec) return { kind: 'gone' };
  // The form was opened by someone allowed; check again at submission, as roles can change.
  const admitted = await admit(deps, op, input.userId, meta.channel, {}, meta.account);
  if (!admitted.ok) return { kind: 'replace', title: spec.title, reply: admitted.reply };
  const fieldNames = new Set(spec.fields.map((f) => f.name));
  const shown = spec.fields.map((f) => f.name).filter((n) => !input.shown || input.shown.includes(n));
  // The form is the truth for its own fields: a value typed on the command line and then
  // emptied in the form stays empty. Arguments the form does not show come from the command.
  const given = Object.fromEntries(Object.entries(meta.given).filter(([name]) => !fieldNames.has(name)));
  const raw = { ...given, ...input.values(spec) };
  const invalid = validate(op, raw);
  if (!invalid.ok) return { kind: 'errors', errors: onFields(invalid.fieldErrors, shown, op) };
  const outcome = deps.flow.start({
    op,
    args: invalid.args,
    userId: input.userId,
    channelId: meta.channel,
    account: admitted.account,
    ...(input.teamId ? { teamId: input.teamId } : {}),
    // The same view submitted again after the cloud's field errors, corrected, is a new request.
    // Secret arguments enter it only keyed (ChangeFlow.argsDigest): the key is stored for good.
    dedupeKey: `view:${input.formId}:${deps.flow.argsDigest(op, invalid.args).slice(0, 16)}`,
  });
  return { kind: 'started', channel: meta.channel, outcome, verdict: (o) => formVerdict(o, shown, op, spec.title) };
}

/**
 * What a form would have shown, told privately instead: Slack closed it at an ack that could not
 * wait for the answer (slack/register-changes.ts: a slow access check reading a user group).
 */
export function closedFormReply(answer: Exclude<FormAnswer, { kind: 'started' }>): Reply {
  switch (answer.kind) {
    case 'gone':
      return buildNote(md`That form is out of date, so nothing was sent. Run the command again.`);
    case 'errors':
      return buildFieldErrors(answer.errors, 'check');
    case 'replace':
      return answer.reply;
  }
}

/** Per-argument schemas, then the entry's cross-field check; errors keyed by argument. */
export function validate(op: AnyOperation, raw: Record<string, unknown>): { ok: true; args: Record<string, unknown> } | { ok: false; fieldErrors: Record<string, string> } {
  const parsed = (op.schema as z.ZodType).safeParse(raw, { error: plainIssue });
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '');
      fieldErrors[name] ??= issue.message;
    }
    return { ok: false, fieldErrors };
  }
  const args = parsed.data as Record<string, unknown>;
  const checked = op.change?.check?.(args as never);
  if (checked && !checked.ok) return { ok: false, fieldErrors: checked.fieldErrors };
  return { ok: true, args: checked?.ok ? (checked.args as Record<string, unknown>) : args };
}

/** Errors for fields the form shows; the rest (arguments given on the command line, a select with no choices) on the first one shown. */
function onFields(errors: Record<string, string>, shown: readonly string[], op: AnyOperation): Record<string, string> {
  const out: Record<string, string> = {};
  const fields = new Set(shown);
  const first = shown[0] ?? op.change!.modal!.fields[0]!.name;
  const specFields = op.change!.modal!.fields;
  for (const [name, said] of Object.entries(errors)) {
    // A field of the form it does not show had no choices to offer: that, not the schema's words, is why.
    const message = !fields.has(name) && specFields.some((f) => f.name === name) ? 'the cloud offers no choices right now' : said;
    const field = fields.has(name) ? name : fields.has(op.change?.bodyToArg?.[name] ?? '') ? op.change!.bodyToArg![name]! : first;
    const onOwnField = fields.has(name) || field === op.change?.bodyToArg?.[name]; // else re-homed: say which input it is about
    out[field] = out[field] ? `${out[field]} ${name}: ${message}` : onOwnField ? message : `${name}: ${message}`;
  }
  return out;
}

function formVerdict(outcome: StartOutcome, fields: readonly string[], op: AnyOperation, title: string): FormVerdict | undefined {
  if (outcome.kind === 'invalid') return { kind: 'errors', errors: onFields(outcome.fieldErrors, fields, op) };
  // A refusal about a field (a subnet in another location, or full): asked again on the form, as README says.
  if (outcome.kind === 'tell' && outcome.fieldErrors && Object.keys(outcome.fieldErrors).length) {
    return { kind: 'errors', errors: onFields(outcome.fieldErrors, fields, op) };
  }
  if (outcome.kind === 'tell') return { kind: 'replace', title, reply: outcome.reply };
  // The same values submitted again after the cloud refused them: the same request (nothing is
  // sent twice), and the form says why again rather than closing as if it had gone through.
  const earlier = outcome.kind === 'duplicate' ? outcome.record : undefined;
  if (earlier?.status === 'failed' && earlier.errorCode === 'VALIDATION_ERROR') {
    const fieldErrors = validationFields(earlier);
    if (Object.keys(fieldErrors).length) return { kind: 'errors', errors: onFields(fieldErrors, fields, op) };
  }
  return undefined;
}
