/**
 * Small Block Kit constructors, the only makers of `Block`. Text objects take `Mrkdwn` (see
 * mrkdwn.ts) or plain text kept to one line; everything is cut at Slack's limits
 * (shared/slack-facts.md "Block Kit limits"), so a view built from them can be rejected
 * neither for length nor made to say what the bot did not mean, whatever the cloud returned.
 * Every mrkdwn text object is `verbatim`, so Slack does not auto-link a URL or a `#channel`
 * that arrived inside a value.
 */
import type { types } from '@slack/bolt';
import { cutMrkdwn, md, plain, trusted, val, type Mrkdwn } from './mrkdwn.js';
import type { Block } from './types.js';

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

/** A value in inline code (ids, names, addresses): see `val`. */
export const code = (v: string | number): Mrkdwn => val(v);

const mrkdwnText = (text: Mrkdwn, max: number) => ({ type: 'mrkdwn' as const, text: cutMrkdwn(text, max), verbatim: true });
const asBlock = <T extends types.KnownBlock>(b: T) => b as T & Block;

export function header(text: string): Block {
  return asBlock({ type: 'header', text: { type: 'plain_text', text: plain(text, LIMITS.headerText), emoji: true } });
}

export function section(text: Mrkdwn): Block {
  return asBlock({ type: 'section', text: mrkdwnText(text, LIMITS.sectionText) });
}

/**
 * A section of plain text: Slack parses nothing in it (no markup, no emoji codes), so a value
 * that inline code cannot show as it is (one with a backtick) is shown exactly here.
 */
export function plainSection(text: string): Block {
  return asBlock({ type: 'section', text: { type: 'plain_text', text: plain(text, LIMITS.sectionText), emoji: false } });
}

/** A section of label/value pairs, two columns in Slack; at most 10 fields. */
export function fields(pairs: [label: Mrkdwn, value: Mrkdwn][]): Block {
  return asBlock({
    type: 'section',
    fields: pairs.slice(0, LIMITS.fields).map(([label, value]) => mrkdwnText(md`*${label}*\n${value}`, LIMITS.fieldText)),
  });
}

export function context(...texts: Mrkdwn[]): Block {
  return asBlock({
    type: 'context',
    elements: texts.slice(0, LIMITS.contextElements).map((t) => mrkdwnText(t, LIMITS.sectionText)),
  });
}

export function divider(): Block {
  return asBlock({ type: 'divider' });
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
    text: { type: 'plain_text', text: plain(b.text, LIMITS.buttonText), emoji: true },
    action_id: b.actionId,
    value: b.value,
    ...(b.style ? { style: b.style } : {}),
  };
}

export function actions(blockId: string, buttons: types.Button[]): Block {
  return asBlock({ type: 'actions', block_id: blockId, elements: buttons.slice(0, LIMITS.actionsElements) });
}

/** How a cut list says what it left out: a sentence of its own, or how to see the rest. */
export type MoreLine = ((n: number) => Mrkdwn) | { rest: Mrkdwn };

const moreText = (more: MoreLine, n: number): Mrkdwn =>
  typeof more === 'function' ? more(n) : md`…and ${n} more not shown. ${more.rest}`;

/**
 * Lines of a list packed into as few sections as fit, within a block budget. What does not
 * fit is counted in a last line ("…and N more not shown", and how to see the rest when the
 * caller knows a way) rather than sent and rejected by Slack. That line is never cut: lines
 * are dropped from the last section, and counted, until it fits.
 */
export function lineSections(lines: Mrkdwn[], maxBlocks: number, more: MoreLine = (n) => md`…and ${n} more not shown`): Block[] {
  const blocks: Block[] = [];
  let current: Mrkdwn[] = [];
  let length = 0;
  const budget = LIMITS.sectionText;
  let i = 0;
  for (; i < lines.length; i++) {
    const line = cutMrkdwn(lines[i]!, budget - 200); // a line alone leaves room for the "more" line
    if (length + line.length + 1 > budget) {
      if (blocks.length + 1 >= maxBlocks) break;
      blocks.push(section(trusted(current.join('\n'))));
      current = [];
      length = 0;
    }
    current.push(line);
    length += line.length + 1;
  }
  if (i < lines.length) {
    let note = md`_${moreText(more, lines.length - i)}_`;
    while (current.length && length + note.length > budget) {
      length -= current.pop()!.length + 1;
      i--;
      note = md`_${moreText(more, lines.length - i)}_`;
    }
    current.push(note);
  }
  if (current.length) blocks.push(section(trusted(current.join('\n'))));
  return blocks;
}
