/**
 * Clicks and forms of changes: Confirm, Cancel and Retry sync on status messages, the change
 * form's submission, and the "type the hostname" form. Each click is acked first; the change
 * flow decides, atomically, whether it acts.
 */
import { createHash } from 'node:crypto';
import type { App, BlockButtonAction, RespondFn } from '@slack/bolt';
import type { z } from 'zod';
import type { ChangeFlow, ClickOutcome, StartOutcome } from '../confirm/change-types.js';
import type { Logger } from '../log.js';
import type { Catalog } from '../operations/catalog.js';
import type { AnyOperation } from '../operations/types.js';
import type { OperationStore } from '../store/types.js';
import { outcomeReply, type ModalMetadata } from '../app/change-commands.js';
import { SlackApiError, type SlackApi } from '../chat/slack-api.js';
import { handlerFailureReply, respondPrivately } from './respond-privately.js';
import { buildFormNotOpened } from '../views/slack-failure-views.js';
import {
  buildFormGone,
  buildModalFromReply,
  buildTypeToConfirmModal,
  CHANGE_MODAL_CALLBACK,
  readModalValues,
  TYPE_TO_CONFIRM_CALLBACK,
  typedMismatchError,
} from '../views/modal-views.js';
import { buildNote } from '../views/click-views.js';
import { plainIssue } from '../views/input-message.js';
import { typedMatches } from '../operations/typed-confirm.js';
import type { Reply } from '../views/types.js';
import { ACTION_CANCEL, ACTION_CONFIRM, ACTION_RETRY_SYNC } from '../views/status-views.js';
import { admit, type GuardDeps } from '../app/guard.js';
import { buildModalFromReply as modalFrom } from '../views/modal-views.js';
import type { AfterAck } from './after-ack.js';

export interface ChangeHandlerDeps extends GuardDeps {
  /** Runs what a listener does after its ack, detached (after-ack.ts). */
  afterAck: AfterAck;
  flow: ChangeFlow;
  slack: SlackApi;
  store: OperationStore;
  catalog: Catalog;
  logger: Logger;
  /** How long a form submission may wait for the cloud before the form closes (default 2 s). */
  submitDeadlineMs?: number;
}

export function registerChanges(app: App, deps: ChangeHandlerDeps): void {
  /** A private answer: an ephemeral message, else (Slack failing that) the response_url when there is one. */
  const tell = async (channel: string | undefined, user: string, reply: Reply, respond?: RespondFn) => {
    if (channel) {
      try {
        await deps.slack.postEphemeral({ channel, user, text: reply.text, blocks: reply.blocks });
        return;
      } catch (e) {
        deps.logger.warn('could not answer a click', { error: e });
      }
    }
    await respondPrivately(deps.logger, respond, reply);
  };

  const onClick = (actionId: string, act: (recordId: string, user: string) => Promise<ClickOutcome>) =>
    app.action<BlockButtonAction>(actionId, async ({ ack, action, body, respond }) => {
      await ack();
      deps.afterAck.run('that click', async () => {
        try {
          const outcome = await act(action.value ?? '', body.user.id);
          if (outcome.kind === 'tell') await tell(body.channel?.id, body.user.id, buildNote(outcome.text), respond);
          if (outcome.kind === 'show') await tell(body.channel?.id, body.user.id, outcome.reply, respond);
          if (outcome.kind === 'type-to-confirm') {
            try {
              await deps.slack.openView(body.trigger_id, buildTypeToConfirmModal(outcome.what, outcome.expected, action.value ?? ''));
            } catch (e) {
              if (!(e instanceof SlackApiError)) throw e;
              deps.logger.warn('could not open the type-to-confirm form', { error: e });
              await respondPrivately(deps.logger, respond, buildFormNotOpened(e.code, e.failure === 'unavailable'));
            }
          }
        } catch (e) {
          await tell(body.channel?.id, body.user.id, handlerFailureReply(deps.logger, 'that click', e), respond);
        }
      });
    });

  onClick(ACTION_CONFIRM, (id, user) => deps.flow.confirm(id, user));
  onClick(ACTION_CANCEL, (id, user) => deps.flow.cancel(id, user));
  onClick(ACTION_RETRY_SYNC, (id, user) => deps.flow.retrySync(id, user));

  app.view(TYPE_TO_CONFIRM_CALLBACK, async ({ ack, body, view }) => {
    const recordId = view.private_metadata;
    const typed = view.state.values.typed?.typed?.value ?? '';
    const record = await deps.store.get(recordId);
    const op = record ? deps.catalog.byId(record.opId) : undefined;
    const expected = record && op?.change?.typeToConfirm?.(record.args as never, record.facts);
    if (expected && !typedMatches(typed, expected)) {
      await ack({ response_action: 'errors', errors: { typed: typedMismatchError(expected) } });
      return;
    }
    await ack();
    deps.afterAck.run('that form', async () => {
      const outcome = await deps.flow.confirm(recordId, body.user.id, typed);
      if (outcome.kind === 'tell' && record) await tell(record.channelId, body.user.id, buildNote(outcome.text));
      if (outcome.kind === 'show' && record) await tell(record.channelId, body.user.id, outcome.reply);
    });
  });

  app.view(CHANGE_MODAL_CALLBACK, async ({ ack, body, view }) => {
    const meta = JSON.parse(view.private_metadata || '{}') as ModalMetadata;
    const op = deps.catalog.byId(meta.op);
    const spec = op?.change?.modal;
    if (!op || !spec) {
      await ack({ response_action: 'update', view: buildFormGone() });
      return;
    }
    // The form was opened by someone allowed; check again at submission, as roles can change.
    const admitted = await admit(deps, op, body.user.id, meta.channel, {}, meta.account);
    if (!admitted.ok) {
      await ack({ response_action: 'update', view: modalFrom(spec.title, admitted.reply.blocks) });
      return;
    }
    const fieldNames = new Set(spec.fields.map((f) => f.name));
    // The form is the truth for its own fields: a value typed on the command line and then
    // emptied in the form stays empty. Arguments the form does not show come from the command.
    const given = Object.fromEntries(Object.entries(meta.given).filter(([name]) => !fieldNames.has(name)));
    const raw = { ...given, ...readModalValues(spec, view.state.values as never) };
    const invalid = validate(op, raw);
    if (!invalid.ok) {
      await ack({ response_action: 'errors', errors: onFields(invalid.fieldErrors, fieldNames, op) });
      return;
    }
    const started = deps.flow.start({
      op,
      args: invalid.args,
      userId: body.user.id,
      channelId: meta.channel,
      account: admitted.account,
      ...(body.team?.id ? { teamId: body.team.id } : {}),
      // The same view submitted again after the cloud's field errors, corrected, is a new request.
      dedupeKey: `view:${view.id}:${createHash('sha256').update(JSON.stringify(invalid.args)).digest('hex').slice(0, 16)}`,
    });
    // Wait briefly so a refusal or the cloud's field errors can still land on the form.
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), deps.submitDeadlineMs ?? 2000).unref());
    const first = await Promise.race([started, timer]);
    if (first === 'late') {
      await ack();
      const outcome = await started;
      const reply = outcomeReply(outcome);
      if (reply) await tell(meta.channel, body.user.id, reply);
      return;
    }
    await ack(formAnswer(first, fieldNames, op, spec.title));
    if (first.kind === 'posted' && first.unseen) await tell(meta.channel, body.user.id, first.unseen);
  });
}

/** Per-argument schemas, then the entry's cross-field check; errors keyed by argument. */
function validate(op: AnyOperation, raw: Record<string, unknown>): { ok: true; args: Record<string, unknown> } | { ok: false; fieldErrors: Record<string, string> } {
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

/** Errors for fields the form has; the rest (arguments given on the command line) on the first field. */
function onFields(errors: Record<string, string>, fields: Set<string>, op: AnyOperation): Record<string, string> {
  const out: Record<string, string> = {};
  const first = op.change!.modal!.fields[0]!.name;
  for (const [name, message] of Object.entries(errors)) {
    const field = fields.has(name) ? name : fields.has(op.change?.bodyToArg?.[name] ?? '') ? op.change!.bodyToArg![name]! : first;
    const onOwnField = fields.has(name) || field === op.change?.bodyToArg?.[name]; // else re-homed: say which input it is about
    out[field] = out[field] ? `${out[field]} ${name}: ${message}` : onOwnField ? message : `${name}: ${message}`;
  }
  return out;
}

function formAnswer(outcome: StartOutcome, fields: Set<string>, op: AnyOperation, title: string) {
  if (outcome.kind === 'invalid') return { response_action: 'errors' as const, errors: onFields(outcome.fieldErrors, fields, op) };
  // A refusal about a field (a subnet in another location, or full): asked again on the form, as README says.
  if (outcome.kind === 'tell' && outcome.fieldErrors && Object.keys(outcome.fieldErrors).length) {
    return { response_action: 'errors' as const, errors: onFields(outcome.fieldErrors, fields, op) };
  }
  if (outcome.kind === 'tell') return { response_action: 'update' as const, view: buildModalFromReply(title, outcome.reply.blocks) };
  return undefined;
}
