/**
 * Each answer of a change form checked as it is given (issue 14: a bad URL was refused only
 * after 12 more questions): the argument's own schema, in plain words, and — for fields the
 * entry marks `checkAsAnswered` — its cross-field check over the answers so far. Everything
 * else (other cross-field checks, the cloud's verdict) stays with the submission, as in Slack.
 */
import type { z } from 'zod';
import type { Catalog } from '../operations/catalog.js';
import type { AnyOperation } from '../operations/types.js';
import { plainIssue } from '../views/input-message.js';
import { CHANGE_MODAL_CALLBACK, readModalValues } from '../views/modal-views.js';
import type { FormField } from './form-walk.js';

type Json = Record<string, unknown>;

/** The refusal of one answer (undefined: accepted for now). */
export type AnswerCheck = (view: Json, field: FormField, state: Json, answers: Map<string, Json>) => string | undefined;

function opOf(catalog: Catalog, view: Json): { op: AnyOperation; given: Json } | undefined {
  if (view.callback_id !== CHANGE_MODAL_CALLBACK) return undefined;
  try {
    const meta = JSON.parse(String(view.private_metadata || '{}')) as { op?: unknown; given?: unknown };
    const op = catalog.byId(String(meta.op));
    return op ? { op, given: meta.given && typeof meta.given === 'object' ? (meta.given as Json) : {} } : undefined;
  } catch {
    return undefined;
  }
}

export function answerChecker(catalog: Catalog): AnswerCheck {
  return (view, field, state, answers) => {
    const found = opOf(catalog, view);
    const spec = found?.op.change?.modal;
    const mf = spec?.fields.find((f) => f.name === field.blockId);
    const arg = found?.op.args[field.blockId];
    if (!found || !spec || !mf || !arg) return undefined;
    const { op, given } = found;
    const raw = readModalValues({ ...spec, fields: [mf] }, { [mf.name]: { [mf.name]: state } } as never);
    if (mf.name in raw) {
      const parsed = (arg.schema as z.ZodType).safeParse(raw[mf.name], { error: plainIssue });
      if (!parsed.success) return parsed.error.issues[0]?.message ?? 'is not accepted here';
    }
    if (!mf.checkAsAnswered || !op.change?.check) return undefined;
    // The answers so far (the form is the truth for its fields), else what the command gave.
    const formNames = new Set(spec.fields.map((f) => f.name));
    const values = Object.fromEntries([...answers, [mf.name, state] as const].map(([name, s]) => [name, { [name]: s }]));
    const rawAll: Json = { ...Object.fromEntries(Object.entries(given).filter(([k]) => !formNames.has(k))), ...readModalValues(spec, values as never) };
    const args: Json = {};
    for (const [name, a] of Object.entries(op.args as Record<string, { schema: z.ZodType }>)) {
      const parsed = a.schema.safeParse(rawAll[name]);
      if (parsed.success && parsed.data !== undefined) args[name] = parsed.data;
    }
    const checked = op.change.check(args as never);
    return checked.ok ? undefined : checked.fieldErrors[mf.name];
  };
}
