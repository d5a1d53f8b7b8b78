/**
 * A modal's input fields as prompts: label, hint, choices by number, "(optional, Enter to
 * skip)". Answers become `view.state.values` in Slack's shape (block_id → action_id → the
 * element's state), so the bot's own form handler validates them exactly as in Slack. Like
 * Slack's client, it refuses an empty required field and text over `max_length` before
 * submitting; everything else is the bot's to judge.
 */
import { mrkdwnToText, plainToText, style, type TextContext } from './mrkdwn-text.js';

type Json = Record<string, unknown>;
export type StateValues = Record<string, Record<string, Json>>;

export interface FormField {
  blockId: string;
  actionId: string;
  element: Json;
  label: string;
  hint: string | undefined;
  optional: boolean;
}

export interface FormIO {
  /** Reads one answer; undefined when input ended. */
  ask(prompt: string): Promise<string | undefined>;
  say(text: string): void;
  /** The bot's verdict on one answer as it is given (field-check.ts); undefined accepts it. */
  check?(field: FormField, state: Json, answers: Map<string, Json>): string | undefined;
}

export const CANCEL_WORD = '/cancel';

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const plain = (t: unknown) => (isObject(t) && typeof t.text === 'string' ? plainToText(t.text) : '');
const optionsOf = (e: Json): Json[] =>
  Array.isArray(e.options)
    ? e.options.filter(isObject)
    : Array.isArray(e.option_groups)
      ? e.option_groups.filter(isObject).flatMap((g) => (Array.isArray(g.options) ? g.options.filter(isObject) : []))
      : [];

/**
 * A select whose options are grouped under an earlier answer's text (subnets under their
 * location) lists only the group that answer chose; otherwise every option.
 */
export function narrowed(f: FormField, answers: Map<string, Json>): FormField {
  const groups = Array.isArray(f.element.option_groups) ? f.element.option_groups.filter(isObject) : [];
  if (!groups.length) return f;
  const chosen = new Set([...answers.values()].map((a) => (isObject(a.selected_option) ? plain(a.selected_option.text) : '')).filter(Boolean));
  const match = groups.find((g) => chosen.has(plain(g.label)));
  return match ? { ...f, element: { ...f.element, option_groups: [match] } } : f;
}

export function formFields(view: Json): FormField[] {
  const blocks = Array.isArray(view.blocks) ? view.blocks : [];
  return blocks.filter((b): b is Json => isObject(b) && b.type === 'input' && isObject(b.element)).map((b) => {
    const element = b.element as Json;
    return {
      blockId: String(b.block_id),
      actionId: String(element.action_id),
      element,
      label: plain(b.label),
      hint: plain(b.hint) || undefined,
      optional: b.optional === true,
    };
  });
}

/** The state an untouched field submits: its initial value, or empty. */
export function initialState(e: Json): Json {
  const type = String(e.type);
  if (type === 'static_select' || type === 'radio_buttons') return { type, selected_option: e.initial_option ?? null };
  if (type === 'multi_static_select' || type === 'checkboxes') return { type, selected_options: Array.isArray(e.initial_options) ? e.initial_options : [] };
  return { type, value: typeof e.initial_value === 'string' ? e.initial_value : null };
}

export function stateValues(fields: FormField[], answers: Map<string, Json>): StateValues {
  const values: StateValues = {};
  for (const f of fields) (values[f.blockId] ??= {})[f.actionId] = answers.get(f.blockId) ?? initialState(f.element);
  return values;
}

type Parsed = { ok: true; state: Json } | { ok: false; problem: string };

/** What one typed line means for one field ('' means Enter). */
export function parseAnswer(f: FormField, line: string): Parsed {
  const e = f.element;
  const type = String(e.type);
  const typed = line.trim();
  const initial = initialState(e);
  const empty = (state: Json): Parsed => (f.optional ? { ok: true, state } : { ok: false, problem: 'This field is required.' });
  if (type === 'static_select' || type === 'radio_buttons' || type === 'multi_static_select' || type === 'checkboxes') {
    const options = optionsOf(e);
    if (type === 'checkboxes' && options.length === 1) {
      if (typed === '') return { ok: true, state: initial };
      if (/^(y|yes)$/i.test(typed)) return { ok: true, state: { type, selected_options: [options[0]] } };
      if (/^(n|no)$/i.test(typed)) return empty({ type, selected_options: [] });
      return { ok: false, problem: 'Answer y or n.' };
    }
    if (typed === '') {
      const chosen = type === 'static_select' || type === 'radio_buttons' ? initial.selected_option !== null : (initial.selected_options as unknown[]).length > 0;
      return chosen ? { ok: true, state: initial } : empty(type === 'static_select' || type === 'radio_buttons' ? { type, selected_option: null } : { type, selected_options: [] });
    }
    const pick = (word: string) => {
      const n = /^\d+$/.test(word) ? Number(word) : NaN;
      return options[n - 1] ?? options.find((o) => o.value === word || plain(o.text).toLowerCase() === word.toLowerCase());
    };
    const multi = type === 'multi_static_select' || type === 'checkboxes';
    const words = multi ? typed.split(/[\s,]+/).filter(Boolean) : [typed];
    const picked = words.map(pick);
    if (picked.some((o) => !o)) return { ok: false, problem: `Type ${multi ? 'numbers' : 'a number'} from 1 to ${options.length}${multi ? ', separated by commas' : ''}.` };
    const max = typeof e.max_selected_items === 'number' ? e.max_selected_items : Infinity;
    if (picked.length > max) return { ok: false, problem: `Choose at most ${max}.` };
    return { ok: true, state: multi ? { type, selected_options: [...new Set(picked)] } : { type, selected_option: picked[0] } };
  }
  if (typed === '') return typeof e.initial_value === 'string' && e.initial_value !== '' ? { ok: true, state: initial } : empty({ type, value: null });
  const max = typeof e.max_length === 'number' ? e.max_length : Infinity;
  if (line.length > max) return { ok: false, problem: `At most ${max} characters.` };
  const min = typeof e.min_length === 'number' ? e.min_length : 0;
  if (line.length < min) return { ok: false, problem: `At least ${min} characters.` };
  return { ok: true, state: { type, value: line } };
}

/** The lines shown before a field's prompt. */
export function describeField(f: FormField, ctx: TextContext, error?: string): string[] {
  const e = f.element;
  const type = String(e.type);
  // A hint that says when the field is required (a repository for a git source) stands for "optional".
  const skip = !f.optional ? '' : /optional/i.test(f.label) || /^required /i.test(f.hint ?? '') ? ' (Enter to skip)' : ' (optional, Enter to skip)';
  const lines: string[] = [];
  if (error) lines.push(style('bold', `! ${mrkdwnToText(error, ctx)}`, ctx.ansi));
  const options = optionsOf(e);
  const single = options.length === 1 && type === 'checkboxes';
  lines.push(`${style('bold', f.label, ctx.ansi)}${single ? ' (y/n)' : ''}${skip}`);
  if (f.hint) lines.push(style('dim', `  ${f.hint}`, ctx.ansi));
  // A text field's placeholder is an example of what to type; a choice's is its prompt ("Where the addresses live").
  if (isObject(e.placeholder)) lines.push(style('dim', `  ${options.length ? '' : 'e.g. '}${plain(e.placeholder)}`, ctx.ansi));
  if (typeof e.initial_value === 'string' && e.initial_value) lines.push(`  Enter keeps: ${e.initial_value}`);
  if (!single && options.length) {
    options.forEach((o, i) => lines.push(`  ${i + 1}) ${plain(o.text)}`));
    if (type === 'multi_static_select' || type === 'checkboxes') lines.push(style('dim', '  several: 1,3', ctx.ansi));
    const initial = initialState(e);
    const chosen = (initial.selected_option ? [initial.selected_option] : ((initial.selected_options as Json[] | undefined) ?? [])).map((o) => plain((o as Json).text));
    if (chosen.length) lines.push(`  Enter keeps: ${chosen.join(', ')}`);
  }
  return lines;
}

/**
 * Asks for `fields` in order (each until its answer is acceptable) and records the states in
 * `answers`. Returns false when the person cancelled or input ended.
 */
export async function walkFields(fields: FormField[], answers: Map<string, Json>, io: FormIO, ctx: TextContext, errors: Record<string, string> = {}): Promise<boolean> {
  for (const whole of fields) {
    const f = narrowed(whole, answers);
    let problem = errors[f.blockId];
    for (;;) {
      io.say(describeField(f, ctx, problem).map((l) => `│ ${l}`).join('\n'));
      const line = await io.ask(`│ ${f.actionId}> `);
      if (line === undefined || line.trim() === CANCEL_WORD) return false;
      const parsed = parseAnswer(f, line);
      const refused = parsed.ok ? io.check?.(f, parsed.state, answers) : parsed.problem;
      if (parsed.ok && refused === undefined) {
        answers.set(f.blockId, parsed.state);
        break;
      }
      problem = refused;
    }
  }
  return true;
}
