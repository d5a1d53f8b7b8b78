/**
 * Small Block Kit constructors. They escape what they are given where Slack needs it and cut
 * text at Slack's limits (shared/slack-facts.md "Block Kit limits"), so a view built from
 * them cannot be rejected for length, whatever the cloud returned.
 */
import type { types } from '@slack/bolt';
import type { Block } from '../../operations/types.js';

export const LIMITS = {
  blocksPerMessage: 50,
  blocksPerModal: 100,
  sectionText: 3000,
  fieldText: 2000,
  fields: 10,
  headerText: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  messageText: 4000,
} as const;

/** Escape the three characters Slack's mrkdwn reserves (api.slack.com/reference/surfaces/formatting#escaping). */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Inline code for a value; backticks inside would end it early, so they become quotes. */
export function code(text: string | number): string {
  return '`' + esc(String(text)).replace(/`/g, "'") + '`';
}

export function cut(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}

export function header(text: string): types.HeaderBlock {
  return { type: 'header', text: { type: 'plain_text', text: cut(text, LIMITS.headerText), emoji: true } };
}

export function section(mrkdwn: string): types.SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: cut(mrkdwn, LIMITS.sectionText) } };
}

/** A section of label/value pairs, two columns in Slack; at most 10 fields. */
export function fields(pairs: [label: string, value: string][]): types.SectionBlock {
  return {
    type: 'section',
    fields: pairs.slice(0, LIMITS.fields).map(([label, value]) => ({
      type: 'mrkdwn' as const,
      text: cut(`*${label}*\n${value}`, LIMITS.fieldText),
    })),
  };
}

export function context(...texts: string[]): types.ContextBlock {
  return {
    type: 'context',
    elements: texts.slice(0, LIMITS.contextElements).map((t) => ({ type: 'mrkdwn' as const, text: cut(t, LIMITS.sectionText) })),
  };
}

export function divider(): types.DividerBlock {
  return { type: 'divider' };
}

export interface ButtonSpec {
  text: string;
  actionId: string;
  value: string;
  style?: 'primary' | 'danger';
}

export function button(b: ButtonSpec): types.Button {
  if (b.value.length > LIMITS.buttonValue) throw new Error(`button value over ${LIMITS.buttonValue} characters`);
  return {
    type: 'button',
    text: { type: 'plain_text', text: cut(b.text, LIMITS.buttonText), emoji: true },
    action_id: b.actionId,
    value: b.value,
    ...(b.style ? { style: b.style } : {}),
  };
}

export function actions(blockId: string, buttons: types.Button[]): types.ActionsBlock {
  return { type: 'actions', block_id: blockId, elements: buttons.slice(0, LIMITS.actionsElements) };
}

/**
 * Lines of a list packed into as few sections as fit, within a block budget. What does not
 * fit is summarised as "…and N more" rather than sent and rejected by Slack.
 */
export function lineSections(lines: string[], maxBlocks: number, more = (n: number) => `…and ${n} more`): Block[] {
  const blocks: Block[] = [];
  let current: string[] = [];
  let length = 0;
  const budget = LIMITS.sectionText - 40; // room for the "and N more" line
  let i = 0;
  for (; i < lines.length; i++) {
    const line = cut(lines[i]!, budget);
    if (length + line.length + 1 > budget) {
      if (blocks.length + 1 >= maxBlocks) break;
      blocks.push(section(current.join('\n')));
      current = [];
      length = 0;
    }
    current.push(line);
    length += line.length + 1;
  }
  if (i < lines.length) current.push(`_${more(lines.length - i)}_`);
  if (current.length) blocks.push(section(current.join('\n')));
  return blocks;
}
