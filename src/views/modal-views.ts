/**
 * Modals for changes, built from the catalog entry's ModalSpec: each field's block id and
 * action id is the argument it fills, so a submission maps straight back onto the arguments
 * and an error maps straight onto its field (`response_action: errors`).
 */
import type { types } from '@slack/bolt';
import type { ModalField, ModalOption, ModalSpec } from './modal-spec.js';
import type { Block } from './types.js';
import { context, section } from './blocks.js';
import { md, plain as oneLine, unescapeEntities, val, type Mrkdwn } from './mrkdwn.js';
import { words } from './words.js';

export const CHANGE_MODAL_CALLBACK = 'cloud_change';
export const TYPE_TO_CONFIRM_CALLBACK = 'cloud_type_confirm';
const MAX_OPTIONS = 100;

export type ModalView = types.ModalView;

/** A plain_text object: never parsed as mrkdwn, kept to one line and Slack's length. */
const plain = (text: string, max = 75): types.PlainTextElement => ({ type: 'plain_text', text: oneLine(text, max), emoji: true });

/** Option texts come from the cloud (names of keys, templates…): plain text only. */
function option(o: ModalOption): types.PlainTextOption {
  return { text: plain(o.text, 75), value: o.value.slice(0, 150) };
}

/** Options under their group's label, in first-seen order (Slack: at most 100 groups). */
function optionGroups(options: ModalOption[]): { label: types.PlainTextElement; options: types.PlainTextOption[] }[] {
  const groups = new Map<string, types.PlainTextOption[]>();
  for (const o of options) {
    const label = o.group ?? 'Other';
    groups.set(label, [...(groups.get(label) ?? []), option(o)]);
  }
  return [...groups].slice(0, 100).map(([label, opts]) => ({ label: plain(label, 75), options: opts }));
}

/** A select with more choices than a Slack menu lists: the value is typed instead. */
const typedChoice = (f: ModalField, options: readonly ModalOption[]): boolean => (f.kind === 'select' || f.kind === 'multi_select') && options.length > MAX_OPTIONS;

/** The hint of a typed choice: why it is typed, and what to type (plain text). */
function typedChoiceHint(f: ModalField, options: readonly ModalOption[]): string {
  const what = f.kind === 'multi_select' ? 'the values, separated by commas or spaces' : 'the value';
  const said = `${options.length} choices, more than a Slack menu lists (${MAX_OPTIONS}): type ${what}, e.g. ${options[0]!.value}.`;
  return f.hint ? `${f.hint} ${said}` : said;
}

function element(f: ModalField, options: ModalOption[], initial: unknown): types.InputBlock['element'] {
  const id = f.name;
  if (typedChoice(f, options)) {
    const given = Array.isArray(initial) ? initial.map(String).join(', ') : initial != null ? String(initial) : '';
    return {
      type: 'plain_text_input',
      action_id: id,
      ...(f.placeholder ? { placeholder: plain(f.placeholder, 150) } : {}),
      ...(given !== '' && given.length <= 3000 ? { initial_value: given } : {}),
    };
  }
  const opts = options.slice(0, MAX_OPTIONS).map(option);
  switch (f.kind) {
    case 'text':
    case 'multiline':
      return {
        type: 'plain_text_input',
        action_id: id,
        multiline: f.kind === 'multiline',
        ...(f.maxLength ? { max_length: f.maxLength } : {}),
        ...(f.placeholder ? { placeholder: plain(f.placeholder, 150) } : {}),
        // A value typed on the command line beyond the field's limit cannot be shown (Slack
        // refuses the whole view); the field stays empty and the submission is validated.
        ...(typeof initial === 'string' && initial !== '' && initial.length <= (f.maxLength ?? Infinity) ? { initial_value: initial } : {}),
      };
    case 'select': {
      const chosen = opts.find((o) => o.value === String(initial ?? ''));
      const grouped = options.some((o) => o.group !== undefined);
      return {
        type: 'static_select',
        action_id: id,
        // Grouped options (subnets by location) are listed under their group's name.
        ...(grouped ? { option_groups: optionGroups(options.slice(0, MAX_OPTIONS)) } : { options: opts }),
        ...(f.placeholder ? { placeholder: plain(f.placeholder, 150) } : {}),
        ...(chosen ? { initial_option: chosen } : {}),
      };
    }
    case 'multi_select': {
      const wanted = new Set((Array.isArray(initial) ? initial : []).map(String));
      const chosen = opts.filter((o) => wanted.has(o.value ?? ''));
      return {
        type: 'multi_static_select',
        action_id: id,
        options: opts,
        ...(f.maxSelected ? { max_selected_items: f.maxSelected } : {}),
        ...(f.placeholder ? { placeholder: plain(f.placeholder, 150) } : {}),
        ...(chosen.length ? { initial_options: chosen } : {}),
      };
    }
    case 'checkbox': {
      const only = option({ value: 'true', text: f.label });
      return { type: 'checkboxes', action_id: id, options: [only], ...(initial === true ? { initial_options: [only] } : {}) };
    }
  }
}

export interface ModalInput {
  spec: ModalSpec;
  /** Choices per field name, already loaded. */
  options: Record<string, ModalOption[]>;
  /** Values to prefill, by argument name (what the command already gave). */
  initial: Record<string, unknown>;
  /** A line above the fields (which server, what happens): the change's description. */
  intro?: Mrkdwn;
  /** Errors the cloud reported for fields (its raw words), shown under them when the form is opened again. */
  fieldNotes?: Record<string, string>;
  privateMetadata: string;
}

export function buildChangeModal(m: ModalInput): ModalView {
  const blocks: (Block | types.InputBlock)[] = [];
  if (m.intro) blocks.push(section(m.intro));
  for (const f of m.spec.fields) {
    // A select with nothing to choose from cannot be submitted; say why instead.
    const opts = m.options[f.name] ?? (Array.isArray(f.options) ? f.options : []);
    if ((f.kind === 'select' || f.kind === 'multi_select') && opts.length === 0) {
      if (!f.optional) blocks.push(section(md`*${words(f.label)}*: the cloud offers no choices right now.`));
      continue;
    }
    blocks.push({
      type: 'input',
      block_id: f.name,
      optional: f.optional ?? false,
      // Slack marks an optional input "(optional)" itself: a label saying it too reads it twice.
      label: plain(f.optional ? f.label.replace(/\s*\(optional\)\s*$/i, '') : f.label, 2000),
      ...(typedChoice(f, opts) ? { hint: plain(typedChoiceHint(f, opts), 2000) } : f.hint ? { hint: plain(f.hint, 2000) } : {}),
      element: element(f, opts, m.initial[f.name]),
    });
    const note = m.fieldNotes?.[f.name];
    if (note) blocks.push(context(md`:warning: ${val(note)}`));
  }
  return {
    type: 'modal',
    callback_id: CHANGE_MODAL_CALLBACK,
    title: plain(m.spec.title, 24),
    submit: plain(m.spec.submit, 24),
    close: plain('Cancel', 24),
    private_metadata: m.privateMetadata,
    blocks: blocks.slice(0, 100),
  };
}

/** Shown at once (a trigger_id lives 3 s), replaced when the choices have been read. */
export function buildLoadingModal(title: string, privateMetadata: string): ModalView {
  return {
    type: 'modal',
    callback_id: CHANGE_MODAL_CALLBACK,
    title: plain(title, 24),
    close: plain('Cancel', 24),
    private_metadata: privateMetadata,
    blocks: [section(md`:hourglass_flowing_sand: Reading the choices from the cloud…`)],
  };
}

/** A message shown inside the form in place of its fields (a refusal, an invitation hint). */
export function buildModalFromReply(title: string, blocks: Block[]): ModalView {
  const shown = blocks.filter((b) => b.type === 'section' || b.type === 'context' || b.type === 'header' || b.type === 'divider');
  return { type: 'modal', title: plain(title, 24), close: plain('Close', 24), blocks: shown.slice(0, 100) };
}

export function buildModalMessage(title: string, text: Mrkdwn): ModalView {
  return { type: 'modal', title: plain(title, 24), close: plain('Close', 24), blocks: [section(text)] };
}

/** A form that only says something (the form is out of date, the choices could not be read). */
export function buildFormGone(): ModalView {
  return buildModalMessage('cloudbot', md`This form is out of date. Run the command again.`);
}

/** The choices of a form could not be read from the cloud. */
export function buildChoicesUnreadable(title: string, summary: Mrkdwn, nextStep: Mrkdwn): ModalView {
  return buildModalMessage(title, md`:warning: Could not read the choices from the cloud. ${summary} ${nextStep}`);
}

/** A refusal of ours as a field's `response_action: errors` text: plain (Slack shows it as is), one line. */
export function fieldErrorText(refusal: Mrkdwn): string {
  return oneLine(unescapeEntities(refusal.replace(/`/g, '')));
}

/** The `response_action: errors` text when the typed hostname does not match (plain text: Slack shows it as is). */
export function typedMismatchError(expected: string): string {
  return oneLine(`Type ${expected} exactly; nothing was done.`, 150);
}

/** A reinstall wipes the disk: the confirmer types the hostname first. */
export function buildTypeToConfirmModal(what: Mrkdwn, expected: string, recordId: string): ModalView {
  return {
    type: 'modal',
    callback_id: TYPE_TO_CONFIRM_CALLBACK,
    title: plain('Confirm', 24),
    submit: plain('Confirm', 24),
    close: plain('Back', 24),
    private_metadata: recordId,
    blocks: [
      section(md`:warning: ${what}. This cannot be undone.`),
      {
        type: 'input',
        block_id: 'typed',
        label: plain(`Type ${expected} to confirm`, 2000),
        element: { type: 'plain_text_input', action_id: 'typed', max_length: 255 },
      },
    ],
  };
}

type StateValue = {
  type?: string;
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: { value: string }[];
};

/** `view.state.values` → raw arguments: strings, string arrays, booleans; empty inputs left out. */
export function readModalValues(spec: ModalSpec, values: Record<string, Record<string, StateValue>>): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const f of spec.fields) {
    const v = values[f.name]?.[f.name];
    if (!v) continue;
    if (f.kind === 'checkbox') raw[f.name] = (v.selected_options ?? []).length > 0;
    else if (f.kind === 'multi_select') {
      // Typed when there were more choices than a menu lists (typedChoice).
      const chosen = typeof v.value === 'string' ? v.value.split(/[\s,]+/).filter(Boolean) : (v.selected_options ?? []).map((o) => o.value);
      if (chosen.length) raw[f.name] = chosen;
    } else if (f.kind === 'select') {
      if (typeof v.value === 'string') {
        if (v.value.trim() !== '') raw[f.name] = v.value.trim();
      } else if (v.selected_option) raw[f.name] = v.selected_option.value;
    } else if (typeof v.value === 'string' && v.value.trim() !== '') raw[f.name] = v.value;
  }
  return raw;
}
