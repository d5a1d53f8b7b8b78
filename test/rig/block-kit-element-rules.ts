/** Block Kit element, option and confirm-dialog rules (limits from shared/slack-facts.md). */
import type { BlockKitChecker } from './block-kit-checker.js';
import { isObject, type JsonObject } from './json.js';

export const ELEMENT_LIMITS = {
  buttonText: 75,
  buttonValue: 2000,
  url: 3000,
  accessibilityLabel: 75,
  placeholder: 150,
  selectOptions: 100,
  optionGroups: 100,
  optionText: 75,
  optionValue: 150,
  optionDescription: 75,
  overflowOptions: { min: 1, max: 5 },
  /** checkboxes / radio_buttons (Slack's block reference). */
  choiceOptions: 10,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  textInputLength: { min: 1, max: 3000 },
  imageAltText: 2000,
} as const;

const SELECTS = ['static_select', 'external_select', 'users_select', 'conversations_select', 'channels_select'];
const MULTI_SELECTS = SELECTS.map((s) => `multi_${s}`);
const TEXT_INPUTS = ['plain_text_input', 'email_text_input', 'url_text_input', 'number_input', 'rich_text_input'];
const PICKERS = ['datepicker', 'timepicker', 'datetimepicker'];
const CHOICES = ['checkboxes', 'radio_buttons'];

/** Which element types each container accepts. */
export const ELEMENTS_IN = {
  actions: ['button', 'overflow', 'workflow_button', ...SELECTS, ...MULTI_SELECTS, ...PICKERS, ...CHOICES, 'plain_text_input', 'rich_text_input'],
  accessory: ['button', 'overflow', 'image', 'workflow_button', ...SELECTS, ...MULTI_SELECTS, ...PICKERS, ...CHOICES],
  input: [...SELECTS, ...MULTI_SELECTS, ...PICKERS, ...CHOICES, ...TEXT_INPUTS, 'file_input'],
} as const;

export function checkConfirm(c: BlockKitChecker, path: string, confirm: unknown): void {
  if (confirm === undefined) return;
  if (!isObject(confirm)) return c.fail(path, 'must be a confirmation dialog object');
  c.text(`${path}/title`, confirm.title, ELEMENT_LIMITS.confirmTitle, { required: true, plainOnly: true });
  c.text(`${path}/text`, confirm.text, ELEMENT_LIMITS.confirmText, { required: true });
  c.text(`${path}/confirm`, confirm.confirm, ELEMENT_LIMITS.confirmButton, { required: true, plainOnly: true });
  c.text(`${path}/deny`, confirm.deny, ELEMENT_LIMITS.confirmButton, { required: true, plainOnly: true });
  c.oneOf(`${path}/style`, confirm.style, ['primary', 'danger']);
}

export function checkOption(c: BlockKitChecker, path: string, option: unknown, allowMrkdwn: boolean): void {
  if (!isObject(option)) return c.fail(path, 'must be an option object { text, value }');
  c.text(`${path}/text`, option.text, ELEMENT_LIMITS.optionText, { required: true, plainOnly: !allowMrkdwn });
  c.string(`${path}/value`, option.value, ELEMENT_LIMITS.optionValue, { required: true });
  c.text(`${path}/description`, option.description, ELEMENT_LIMITS.optionDescription, { plainOnly: !allowMrkdwn });
  c.string(`${path}/url`, option.url, ELEMENT_LIMITS.url);
}

/** options XOR option_groups, counts, and initial option(s) that really are among the options. */
function checkOptions(c: BlockKitChecker, path: string, el: JsonObject, max: number, min = 0, allowMrkdwn = false): void {
  const hasGroups = el.option_groups !== undefined;
  if (hasGroups && el.options !== undefined) c.fail(path, 'has both options and option_groups');
  const all: unknown[] = [];
  if (hasGroups) {
    c.array(`${path}/option_groups`, el.option_groups, { min: 1, max: ELEMENT_LIMITS.optionGroups }).forEach((g, i) => {
      const gp = `${path}/option_groups/${i}`;
      if (!isObject(g)) return c.fail(gp, 'must be an option group { label, options }');
      c.text(`${gp}/label`, g.label, ELEMENT_LIMITS.optionText, { required: true, plainOnly: true });
      c.array(`${gp}/options`, g.options, { min: 1, max: ELEMENT_LIMITS.selectOptions, required: true }).forEach((o, j) => {
        checkOption(c, `${gp}/options/${j}`, o, allowMrkdwn);
        all.push(o);
      });
    });
  } else {
    c.array(`${path}/options`, el.options, { min, max, required: true }).forEach((o, i) => {
      checkOption(c, `${path}/options/${i}`, o, allowMrkdwn);
      all.push(o);
    });
  }
  const values = new Set(all.filter(isObject).map((o) => o.value));
  const initials = el.initial_option !== undefined ? [el.initial_option] : Array.isArray(el.initial_options) ? el.initial_options : [];
  initials.forEach((o, i) => {
    const p = el.initial_option !== undefined ? `${path}/initial_option` : `${path}/initial_options/${i}`;
    checkOption(c, p, o, allowMrkdwn);
    if (isObject(o) && !values.has(o.value)) c.fail(p, `value ${JSON.stringify(o.value)} is not one of the options`);
  });
}

function checkTextInput(c: BlockKitChecker, path: string, el: JsonObject): void {
  const { min, max } = ELEMENT_LIMITS.textInputLength;
  c.integer(`${path}/max_length`, el.max_length, min, max);
  c.integer(`${path}/min_length`, el.min_length, 0, max);
  if (typeof el.min_length === 'number' && typeof el.max_length === 'number' && el.min_length > el.max_length) {
    c.fail(`${path}/min_length`, 'must not exceed max_length');
  }
  if (typeof el.initial_value === 'string' && typeof el.max_length === 'number' && el.initial_value.length > el.max_length) {
    c.fail(`${path}/initial_value`, 'is longer than max_length');
  }
  c.boolean(`${path}/multiline`, el.multiline);
}

/** One interactive element (or image element) of an actions/section/input/context block. */
export function checkElement(c: BlockKitChecker, path: string, el: unknown, allowed: readonly string[], actionIds: Set<string>): void {
  if (!isObject(el)) return c.fail(path, 'must be an element object');
  const type = el.type;
  if (typeof type !== 'string') return c.fail(`${path}/type`, 'is required');
  if (!allowed.includes(type)) return c.fail(`${path}/type`, `element "${type}" is not allowed here`);
  if (type === 'image') {
    if (el.image_url === undefined && el.slack_file === undefined) c.fail(path, 'image needs image_url or slack_file');
    c.string(`${path}/image_url`, el.image_url, ELEMENT_LIMITS.url);
    c.string(`${path}/alt_text`, el.alt_text, ELEMENT_LIMITS.imageAltText, { required: true });
    return;
  }
  c.id(`${path}/action_id`, el.action_id);
  c.unique(`${path}/action_id`, actionIds, el.action_id, 'action_id in this block');
  checkConfirm(c, `${path}/confirm`, el.confirm);
  c.text(`${path}/placeholder`, el.placeholder, ELEMENT_LIMITS.placeholder, { plainOnly: true });
  c.boolean(`${path}/focus_on_load`, el.focus_on_load);
  if (type === 'button') {
    c.text(`${path}/text`, el.text, ELEMENT_LIMITS.buttonText, { required: true, plainOnly: true });
    c.string(`${path}/value`, el.value, ELEMENT_LIMITS.buttonValue);
    c.string(`${path}/url`, el.url, ELEMENT_LIMITS.url);
    c.oneOf(`${path}/style`, el.style, ['primary', 'danger']);
    c.string(`${path}/accessibility_label`, el.accessibility_label, ELEMENT_LIMITS.accessibilityLabel);
  } else if (type === 'static_select' || type === 'multi_static_select') {
    checkOptions(c, path, el, ELEMENT_LIMITS.selectOptions, 1);
  } else if (type === 'overflow') {
    const { min, max } = ELEMENT_LIMITS.overflowOptions;
    checkOptions(c, path, el, max, min);
  } else if (type === 'checkboxes' || type === 'radio_buttons') {
    checkOptions(c, path, el, ELEMENT_LIMITS.choiceOptions, 1, true);
  } else if (type === 'external_select' || type === 'multi_external_select') {
    c.integer(`${path}/min_query_length`, el.min_query_length, 0, 1000);
  } else if (type === 'plain_text_input' || type === 'email_text_input' || type === 'url_text_input') {
    checkTextInput(c, path, el);
  } else if (type === 'number_input') {
    if (typeof el.is_decimal_allowed !== 'boolean') c.fail(`${path}/is_decimal_allowed`, 'is required (boolean)');
  } else if (type === 'datepicker' && el.initial_date !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(el.initial_date))) c.fail(`${path}/initial_date`, 'must be YYYY-MM-DD');
  } else if (type === 'timepicker' && el.initial_time !== undefined) {
    if (!/^\d{2}:\d{2}$/.test(String(el.initial_time))) c.fail(`${path}/initial_time`, 'must be HH:mm');
  }
  if (type.startsWith('multi_')) c.integer(`${path}/max_selected_items`, el.max_selected_items, 1, 100);
}
