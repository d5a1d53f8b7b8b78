/**
 * Block Kit as readable terminal text (pure): headers, sections and their fields, context,
 * dividers, buttons listed as `[1] Confirm  [2] Cancel`, and a heading line that says where
 * the message is — the channel, a thread (indented under its parent's label), an edit
 * "(updated)", or an ephemeral reply "(only you)". Numbers for buttons come from the caller.
 */
import { mrkdwnToText, plainToText, style, type TextContext } from './mrkdwn-text.js';

export type { TextContext } from './mrkdwn-text.js';
export { mrkdwnToText } from './mrkdwn-text.js';

type Json = Record<string, unknown>;

export interface ButtonRef {
  blockId: string;
  element: Json;
}

/** Gives a button its number (the shell's registry); pure callers can count. */
export type NumberFor = (button: ButtonRef) => number;

export type Heading =
  | { kind: 'message'; channel: string; updated?: boolean }
  | { kind: 'reply'; parentLabel: string; broadcast?: boolean }
  | { kind: 'ephemeral'; updated?: boolean }
  | { kind: 'view'; title: string; home?: boolean }
  | { kind: 'unfurl'; channel: string; url: string };

export interface Entry {
  heading: Heading;
  /** The notification text: shown when there are no blocks. */
  text: string;
  blocks: unknown[];
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const textOf = (t: unknown, ctx: TextContext): string => {
  if (!isObject(t) || typeof t.text !== 'string') return '';
  return t.type === 'mrkdwn' ? mrkdwnToText(t.text, ctx) : plainToText(t.text);
};

export function renderButtons(buttons: ButtonRef[], numberFor: NumberFor, ctx: TextContext): string {
  return buttons
    .map((b) => {
      const label = textOf(b.element.text, ctx) || String(b.element.action_id ?? 'button');
      const url = typeof b.element.url === 'string' ? ` (${b.element.url})` : '';
      return `${style('bold', `[${numberFor(b)}]`, ctx.ansi)} ${label}${url}`;
    })
    .join('  ');
}

/** A section field is `*label*\nvalue`: shown as `label: value`. */
function field(f: unknown, ctx: TextContext): string {
  const text = textOf(f, ctx);
  const [first, ...rest] = text.split('\n');
  return rest.length ? `${first}: ${rest.join(' ')}` : (first ?? '');
}

function elementLines(elements: unknown[], blockId: string, numberFor: NumberFor, ctx: TextContext): string[] {
  const buttons: ButtonRef[] = [];
  const others: string[] = [];
  for (const e of elements) {
    if (!isObject(e)) continue;
    if (e.type === 'button') buttons.push({ blockId, element: e });
    else others.push(`(${String(e.type)}${isObject(e.placeholder) ? `: ${textOf(e.placeholder, ctx)}` : ''} — not available in the shell)`);
  }
  return [...(buttons.length ? [renderButtons(buttons, numberFor, ctx)] : []), ...others];
}

function richText(v: unknown): string {
  if (Array.isArray(v)) return v.map(richText).join('');
  if (!isObject(v)) return '';
  if (typeof v.text === 'string') return v.text;
  if (v.type === 'user' && typeof v.user_id === 'string') return `@${v.user_id}`;
  if (v.type === 'link' && typeof v.url === 'string') return v.url;
  const inner = richText(v.elements);
  return v.type === 'rich_text_section' || v.type === 'rich_text_preformatted' || v.type === 'rich_text_quote' ? `${inner}\n` : inner;
}

/** The blocks as lines (no heading, no indent). */
export function renderBlocks(blocks: unknown[], ctx: TextContext, numberFor: NumberFor): string[] {
  const lines: string[] = [];
  blocks.forEach((block, index) => {
    if (!isObject(block)) return;
    const blockId = typeof block.block_id === 'string' ? block.block_id : `block-${index}`;
    switch (block.type) {
      case 'header':
        lines.push(style('bold', `== ${textOf(block.text, ctx)} ==`, ctx.ansi));
        break;
      case 'section': {
        const text = textOf(block.text, ctx);
        if (text) lines.push(...text.split('\n'));
        if (Array.isArray(block.fields)) lines.push(...block.fields.map((f) => `  ${field(f, ctx)}`));
        if (isObject(block.accessory)) lines.push(...elementLines([block.accessory], blockId, numberFor, ctx));
        break;
      }
      case 'context': {
        const parts = (Array.isArray(block.elements) ? block.elements : []).map((e) =>
          isObject(e) && e.type === 'image' ? `[${String(e.alt_text ?? 'image')}]` : textOf(e, ctx),
        );
        lines.push(...style('dim', parts.filter(Boolean).join('  '), ctx.ansi).split('\n'));
        break;
      }
      case 'divider':
        lines.push('────────────────────────────────');
        break;
      case 'actions':
        lines.push(...elementLines(Array.isArray(block.elements) ? block.elements : [], blockId, numberFor, ctx));
        break;
      case 'image':
        lines.push(`[image: ${String(block.alt_text ?? '')}]`);
        break;
      case 'input':
        lines.push(`${textOf(block.label, ctx)}: (a form field)`);
        break;
      case 'rich_text':
        lines.push(...richText(block.elements).replace(/\n+$/, '').split('\n'));
        break;
      default:
        if (typeof block.type === 'string') lines.push(`(${block.type} block)`);
    }
  });
  return lines;
}

/** One line naming a message (a thread's parent): its notification text, shortened. */
export function messageLabel(text: string, ctx: TextContext): string {
  // A title in quotes: values read as words, without code marks or colour.
  const first = mrkdwnToText(text, { ...ctx, ansi: false, codeMarks: false }).split('\n')[0] ?? '';
  return first.length > 72 ? `${first.slice(0, 71)}…` : first;
}

function headingLine(h: Heading, ctx: TextContext): string {
  switch (h.kind) {
    case 'message':
      return `cloudbot in #${h.channel}${h.updated ? ' (updated)' : ''}:`;
    case 'unfurl':
      return `cloudbot previews ${plainToText(h.url)} in #${h.channel} (everyone there sees it):`;
    case 'reply':
      return `  ↳ in the thread of “${h.parentLabel}”${h.broadcast ? ' (also sent to the channel)' : ''}:`;
    case 'ephemeral':
      return `cloudbot (only you${h.updated ? ', updated' : ''}):`;
    case 'view':
      // App Home is a tab of the app, not a form.
      return style('bold', h.home ? '┌ Home — your App Home tab' : `┌ form: ${plainToText(h.title)}`, ctx.ansi);
  }
}

/** An entry's body lines: its blocks, or its text when it has none. */
export function entryLines(entry: Entry, ctx: TextContext, numberFor: NumberFor): string[] {
  return entry.blocks.length ? renderBlocks(entry.blocks, ctx, numberFor) : mrkdwnToText(entry.text, ctx).split('\n');
}

/**
 * An edit, shown briefly: the first line (what the message is about, and its state), then
 * only the lines the edit added or changed; what stayed as it was is counted, not repeated.
 */
export function compactUpdate(before: string[], after: string[]): string[] {
  const old = new Set(before);
  const [first, ...rest] = after;
  const changed = rest.filter((l) => !old.has(l));
  const same = rest.length - changed.length;
  return [...(first === undefined ? [] : [first]), ...changed, ...(same > 0 ? [`(${same} more line${same === 1 ? '' : 's'} as before)`] : [])];
}

/** The heading line, then the body indented under it. */
export function formatEntry(heading: Heading, lines: string[], ctx: TextContext): string {
  const indent = heading.kind === 'reply' ? '      ' : heading.kind === 'view' ? '│ ' : '  ';
  return [headingLine(heading, ctx), ...lines.map((l) => (l ? `${indent}${l}` : ''))].join('\n');
}

/** A whole entry: the heading line, then the body indented under it. */
export function renderEntry(entry: Entry, ctx: TextContext, numberFor: NumberFor): string {
  return formatEntry(entry.heading, entryLines(entry, ctx, numberFor), ctx);
}
