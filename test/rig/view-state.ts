/**
 * `view.state.values[block_id][action_id]` as Slack fills it on a modal submission: each
 * element type has its own field (`value`, `selected_option`, `selected_users`, …); an input
 * nobody touched carries its initial value or null/[].
 */
import { interactiveElements, optionFor } from './block-elements.js';
import { asArray, isObject, type JsonObject } from './json.js';

/**
 * What a person entered: a string for text inputs, single selects (the option's value),
 * user/conversation pickers (the id), dates (`YYYY-MM-DD`), times (`HH:mm`); a string array
 * for multi-selects and checkboxes; null to leave it empty.
 */
export type InputValue = string | readonly string[] | null;

const SINGLE_PICKERS: Record<string, string> = {
  users_select: 'selected_user',
  conversations_select: 'selected_conversation',
  channels_select: 'selected_channel',
  datepicker: 'selected_date',
  timepicker: 'selected_time',
};
const MULTI_PICKERS: Record<string, string> = {
  multi_users_select: 'selected_users',
  multi_conversations_select: 'selected_conversations',
  multi_channels_select: 'selected_channels',
};
const INITIAL_FIELD: Record<string, string> = {
  selected_user: 'initial_user',
  selected_conversation: 'initial_conversation',
  selected_channel: 'initial_channel',
  selected_date: 'initial_date',
  selected_time: 'initial_time',
  selected_users: 'initial_users',
  selected_conversations: 'initial_conversations',
  selected_channels: 'initial_channels',
};

function asList(value: InputValue | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  if (value === null) return [];
  return typeof value === 'string' ? [value] : [...value];
}

/** The state entry for one element, given what was entered (undefined: left as initially shown). */
export function elementState(element: JsonObject, entered: InputValue | undefined): JsonObject {
  const type = String(element.type);
  const single = (v: InputValue | undefined): string | null =>
    v === undefined ? null : typeof v === 'string' ? v : v === null ? null : (v[0] ?? null);
  if (type === 'static_select' || type === 'external_select' || type === 'radio_buttons') {
    const value = single(entered);
    const selected =
      entered === undefined ? (element.initial_option ?? null) : value === null ? null : optionFor(element, value);
    return { type, selected_option: selected };
  }
  if (type === 'multi_static_select' || type === 'multi_external_select' || type === 'checkboxes') {
    const values = asList(entered);
    const selected = values === undefined ? asArray(element.initial_options) : values.map((v) => optionFor(element, v));
    return { type, selected_options: selected };
  }
  const singleField = SINGLE_PICKERS[type];
  if (singleField) {
    const initial = element[INITIAL_FIELD[singleField] as string] ?? null;
    return { type, [singleField]: entered === undefined ? initial : single(entered) };
  }
  const multiField = MULTI_PICKERS[type];
  if (multiField) {
    const initial = asArray(element[INITIAL_FIELD[multiField] as string]);
    return { type, [multiField]: asList(entered) ?? initial };
  }
  if (type === 'datetimepicker') {
    const v = single(entered);
    return { type, selected_date_time: entered === undefined ? (element.initial_date_time ?? null) : v === null ? null : Number(v) };
  }
  // plain_text_input, number_input, email_text_input, url_text_input and anything newer.
  const initial = typeof element.initial_value === 'string' ? element.initial_value : null;
  return { type, value: entered === undefined ? initial : single(entered) };
}

/**
 * State values for every input block of `blocks`. `entered` is keyed by action_id, or by
 * `block_id.action_id` when an action_id repeats; a key that names no input throws, so a
 * test cannot silently fill a field the modal does not have.
 */
export function viewStateValues(
  blocks: unknown,
  entered: Record<string, InputValue> = {},
): Record<string, Record<string, JsonObject>> {
  const values: Record<string, Record<string, JsonObject>> = {};
  const used = new Set<string>();
  const bareUses = new Map<string, number>();
  for (const { block, blockId, element } of interactiveElements(blocks)) {
    if (!isObject(block) || block.type !== 'input') continue;
    const actionId = String(element.action_id);
    const qualified = `${blockId}.${actionId}`;
    const key = qualified in entered ? qualified : actionId in entered ? actionId : undefined;
    if (key !== undefined) used.add(key);
    if (key === actionId) bareUses.set(key, (bareUses.get(key) ?? 0) + 1);
    (values[blockId] ??= {})[actionId] = elementState(element, key === undefined ? undefined : entered[key]);
  }
  for (const [key, count] of bareUses) {
    if (count > 1) throw new Error(`action_id ${key} is in ${count} input blocks: key it as block_id.action_id`);
  }
  const unknown = Object.keys(entered).filter((k) => !used.has(k));
  if (unknown.length > 0) throw new Error(`no input block has action_id ${unknown.join(', ')}`);
  return values;
}
