/**
 * A change form submitted, from any surface: checked again (roles can change while a form is
 * open), its values validated against the entry's schema, and the change started. What the
 * form should show comes back as data; the surface maps it onto its form (Slack's
 * `response_action`, slack/register-changes.ts) and tells the person anything said later.
 */
import { createHash } from 'node:crypto';
import { plainIssue } from '../views/input-message.js';
import { admit } from './guard.js';
export async function submitForm(deps, input) {
    const { meta } = input;
    const op = deps.catalog.byId(meta.op);
    const spec = op?.change?.modal;
    if (!op || !spec)
        return { kind: 'gone' };
    // The form was opened by someone allowed; check again at submission, as roles can change.
    const admitted = await admit(deps, op, input.userId, meta.channel, {}, meta.account);
    if (!admitted.ok)
        return { kind: 'replace', title: spec.title, reply: admitted.reply };
    const fieldNames = new Set(spec.fields.map((f) => f.name));
    // The form is the truth for its own fields: a value typed on the command line and then
    // emptied in the form stays empty. Arguments the form does not show come from the command.
    const given = Object.fromEntries(Object.entries(meta.given).filter(([name]) => !fieldNames.has(name)));
    const raw = { ...given, ...input.values(spec) };
    const invalid = validate(op, raw);
    if (!invalid.ok)
        return { kind: 'errors', errors: onFields(invalid.fieldErrors, fieldNames, op) };
    const outcome = deps.flow.start({
        op,
        args: invalid.args,
        userId: input.userId,
        channelId: meta.channel,
        account: admitted.account,
        ...(input.teamId ? { teamId: input.teamId } : {}),
        // The same view submitted again after the cloud's field errors, corrected, is a new request.
        dedupeKey: `view:${input.formId}:${createHash('sha256').update(JSON.stringify(invalid.args)).digest('hex').slice(0, 16)}`,
    });
    return { kind: 'started', channel: meta.channel, outcome, verdict: (o) => formVerdict(o, fieldNames, op, spec.title) };
}
/** Per-argument schemas, then the entry's cross-field check; errors keyed by argument. */
function validate(op, raw) {
    const parsed = op.schema.safeParse(raw, { error: plainIssue });
    if (!parsed.success) {
        const fieldErrors = {};
        for (const issue of parsed.error.issues) {
            const name = String(issue.path[0] ?? '');
            fieldErrors[name] ??= issue.message;
        }
        return { ok: false, fieldErrors };
    }
    const args = parsed.data;
    const checked = op.change?.check?.(args);
    if (checked && !checked.ok)
        return { ok: false, fieldErrors: checked.fieldErrors };
    return { ok: true, args: checked?.ok ? checked.args : args };
}
/** Errors for fields the form has; the rest (arguments given on the command line) on the first field. */
function onFields(errors, fields, op) {
    const out = {};
    const first = op.change.modal.fields[0].name;
    for (const [name, message] of Object.entries(errors)) {
        const field = fields.has(name) ? name : fields.has(op.change?.bodyToArg?.[name] ?? '') ? op.change.bodyToArg[name] : first;
        const onOwnField = fields.has(name) || field === op.change?.bodyToArg?.[name]; // else re-homed: say which input it is about
        out[field] = out[field] ? `${out[field]} ${name}: ${message}` : onOwnField ? message : `${name}: ${message}`;
    }
    return out;
}
function formVerdict(outcome, fields, op, title) {
    if (outcome.kind === 'invalid')
        return { kind: 'errors', errors: onFields(outcome.fieldErrors, fields, op) };
    // A refusal about a field (a subnet in another location, or full): asked again on the form, as README says.
    if (outcome.kind === 'tell' && outcome.fieldErrors && Object.keys(outcome.fieldErrors).length) {
        return { kind: 'errors', errors: onFields(outcome.fieldErrors, fields, op) };
    }
    if (outcome.kind === 'tell')
        return { kind: 'replace', title, reply: outcome.reply };
    return undefined;
}
//# sourceMappingURL=submit-form.js.map