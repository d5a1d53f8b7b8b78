/**
 * Slack's mrkdwn as a terminal reads it (pure): `*bold*`, `_italic_`, `~strike~` lose their
 * markers (or become ANSI styles), inline code keeps its backticks (a value reads as `value`,
 * or in colour on a terminal), `<@U…>`/`<#C…>`/links become words, known emoji codes become a
 * symbol, and Slack's three escapes are undone. No control character in what is rendered
 * reaches the terminal: only the styles added here do.
 */
import { unescapeEntities } from '../views/mrkdwn.js';

export interface TextContext {
  /** The local person: `<@id>` reads as "@you". */
  userId: string;
  /** Channel names by id, for `<#C…>`. */
  channels: Record<string, string>;
  /** Style with ANSI escapes (the output is a terminal) instead of plain text. */
  ansi?: boolean;
  /** Without ANSI, inline code keeps its backticks (they delimit a value); false drops them (a thread's title). */
  codeMarks?: boolean;
}

/** The emoji the bot uses, as a short symbol; any other `:code:` is left as typed. */
const EMOJI: Record<string, string> = {
  white_check_mark: '✔',
  heavy_check_mark: '✔',
  x: '✘',
  heavy_multiplication_x: '✘',
  warning: '⚠',
  hourglass_flowing_sand: '⏳',
  hourglass: '⏳',
  no_entry: '⛔',
  no_entry_sign: '⊘',
  grey_question: '?',
  question: '?',
  alarm_clock: '⏰',
  stopwatch: '⏱',
  construction: '🚧',
  lock: '🔒',
  key: '🔑',
  large_green_circle: '🟢',
  red_circle: '🔴',
  arrows_counterclockwise: '↻',
  eyes: '👀',
  memory: '📝',
  test_tube: '🧪',
  pushpin: '📌',
  pause_button: '⏸',
  double_vertical_bar: '⏸',
  boom: '💥',
  ghost: '👻',
  bell: '🔔',
  no_bell: '🔕',
  zzz: '💤',
  wastebasket: '🗑',
  calendar: '📅',
  fast_forward: '⏩',
};

const STYLE = {
  bold: ['\x1b[1m', '\x1b[22m'],
  italic: ['\x1b[3m', '\x1b[23m'],
  strike: ['\x1b[9m', '\x1b[29m'],
  code: ['\x1b[36m', '\x1b[39m'],
  dim: ['\x1b[2m', '\x1b[22m'],
} as const;

export function style(kind: keyof typeof STYLE, text: string, ansi: boolean | undefined): string {
  return ansi ? `${STYLE[kind][0]}${text}${STYLE[kind][1]}` : text;
}

// C0/C1 controls (ESC starts terminal commands: clear the screen, move the cursor, retitle the
// window) and bidirectional controls (a line reading backwards) become a visible U+FFFD.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Exactly the escapes `STYLE` writes (any other ESC sequence came from outside). */
// eslint-disable-next-line no-control-regex
const OUR_STYLE = /(\x1b\[(?:1|22|3|23|9|29|36|39|2)m)/;

/** Outside text made safe to print: line breaks kept (a CR as one, a tab as a space), every other control visible. */
export function controlFree(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').replace(CONTROLS, '\ufffd');
}

/** For the output sink: like `controlFree`, but the ANSI styles (SGR) this module adds stay. */
export function terminalSafe(text: string): string {
  return text
    .split(OUR_STYLE)
    .map((part, i) => (i % 2 === 1 ? part : controlFree(part)))
    .join('');
}

export function emoji(text: string): string {
  return text.replace(/:([a-z0-9_+-]+):/g, (whole, name: string) => EMOJI[name] ?? whole);
}

/** `<…>` in mrkdwn: mentions, channels, special mentions and links. */
function angle(inner: string, ctx: TextContext): string {
  const [target = '', label] = inner.split('|', 2) as [string, string | undefined];
  if (target.startsWith('@')) {
    const id = target.slice(1);
    return id === ctx.userId ? '@you' : `@${label ?? id}`;
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    return `#${label ?? ctx.channels[id] ?? id}`;
  }
  if (target.startsWith('!')) {
    const special = target.slice(1);
    if (label) return label;
    return special.startsWith('subteam^') ? `@${special.slice('subteam^'.length)}` : `@${special}`;
  }
  const url = unescapeEntities(target);
  const text = label === undefined ? undefined : unescapeEntities(label);
  if (url.startsWith('mailto:')) return text ?? url.slice('mailto:'.length);
  // `<https://host/|host>` (as `link()` writes a host) reads as the address alone.
  const bare = url.replace(/^https?:\/\//, '');
  return text === undefined || text === url || text === bare || `${text}/` === bare ? url : `${text} (${url})`;
}

/** mrkdwn → terminal text. */
export function mrkdwnToText(source: string, ctx: TextContext): string {
  const kept: string[] = [];
  // Controls go first: the source then holds no NUL, so the placeholders below are only ours.
  const keep = (s: string) => `\u0000${kept.push(s) - 1}\u0000`;
  let text = controlFree(source).replace(/```([\s\S]*?)```/g, (_m, body: string) => {
    const lines = unescapeEntities(body.replace(/^\n|\n$/g, '')).split('\n');
    return keep(`\n${lines.map((l) => `  ${style('code', l, ctx.ansi)}`).join('\n')}\n`);
  });
  text = text.replace(/`([^`\n]+)`/g, (_m, body: string) =>
    keep(ctx.ansi || ctx.codeMarks === false ? style('code', unescapeEntities(body), ctx.ansi) : `\`${unescapeEntities(body)}\``),
  );
  text = text.replace(/<([^<>\n]+)>/g, (_m, inner: string) => keep(angle(inner, ctx)));
  const marker = (ch: string, kind: keyof typeof STYLE) => {
    const m = `\\${ch}`;
    const re = new RegExp(`(^|[^\\w${m}])${m}(?=\\S)([^${m}\\n]*?[^${m}\\s])${m}(?=$|[^\\w${m}])`, 'gm');
    text = text.replace(re, (_whole, before: string, inner: string) => `${before}${style(kind, inner, ctx.ansi)}`);
  };
  marker('*', 'bold');
  marker('_', 'italic');
  marker('~', 'strike');
  text = unescapeEntities(emoji(text));
  // Restore kept pieces (a piece may hold another's placeholder: code inside a link label).
  for (let i = 0; i < 3 && text.includes('\u0000'); i++) text = text.replace(/\u0000(\d+)\u0000/g, (_m, n: string) => kept[Number(n)] ?? '');
  return text.replace(/\n{3,}/g, '\n\n').replace(/^\n+|\n+$/g, '');
}

/** A plain_text object's text (Slack turns emoji codes into emoji there too). */
export function plainToText(source: string): string {
  return emoji(controlFree(source));
}
