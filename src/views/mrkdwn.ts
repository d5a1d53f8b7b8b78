/**
 * Safe mrkdwn by construction. Slack reads a message's `text` and every `mrkdwn` text object
 * for mentions (`<!here>`, `<@U…>`, `<#C…>`), links (`<url|label>`) and formatting
 * (https://api.slack.com/reference/surfaces/formatting). Text the bot did not write itself — a
 * server name, a cloud error, anything a person typed — must never reach Slack as markup.
 *
 * So mrkdwn is a branded type, `Mrkdwn`, that only this module mints:
 * - `md` is a template tag whose literal parts are ours and whose holes take only `Mrkdwn`
 *   and numbers: a raw string in a hole is a type error;
 * - `val(s)` turns outside text into an inert inline code span (escaped, one line, capped);
 * - `mention`, `channelRef`, `link`, `date` build the only live markup, from values checked
 *   here (a Slack id's shape, an http(s) URL with a host).
 * `trusted()` re-brands text this layer made (a stored summary); only `src/views/` may call it
 * (a test greps for it).
 */

declare const brand: unique symbol;
/** A string that is safe to hand to Slack as mrkdwn: made only by this module. */
export type Mrkdwn = string & { readonly [brand]: 'mrkdwn' };

/** What a hole of `md` takes: our own mrkdwn, or a number (which cannot carry markup). */
export type Hole = Mrkdwn | number;

/** Re-brands text this layer produced earlier (e.g. a summary stored with an operation record). */
export function trusted(text: string): Mrkdwn {
  return text as Mrkdwn;
}

export function md(strings: TemplateStringsArray, ...holes: readonly Hole[]): Mrkdwn {
  let out = strings[0]!;
  for (let i = 0; i < holes.length; i++) out += String(holes[i]) + strings[i + 1]!;
  return out as Mrkdwn;
}

export function join(parts: readonly Hole[], separator: Mrkdwn | '' | ' ' | ', ' | ' · ' | '; ' | '\n' = ''): Mrkdwn {
  return parts.map(String).join(separator) as Mrkdwn;
}

export const bold = (m: Hole): Mrkdwn => `*${m}*` as Mrkdwn;
export const italic = (m: Hole): Mrkdwn => `_${m}_` as Mrkdwn;

/** The longest outside value shown inline; longer ones are cut with "…" (names are 40 at most). */
export const VALUE_MAX = 300;

// Bidirectional controls can make a line read backwards (U+202E "RIGHT-TO-LEFT OVERRIDE"), and
// other control characters can clear a terminal; they become a visible U+FFFD.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const NEWLINES = /\r\n|[\r\n\t\u2028\u2029]/g;

/** One line of outside text, controls visible, length capped (shared by mrkdwn and plain text). */
export function oneLine(text: string, max = VALUE_MAX): string {
  const flat = text.replace(NEWLINES, ' ').replace(CONTROLS, '\ufffd');
  // Capped in UTF-16 units, as the rig's fake Slack counts: never fewer than code points, so
  // within Slack's limit whichever it counts (an emoji is two units, one code point).
  if (flat.length <= max) return flat;
  return cutUnits(flat, max - 1) + '…';
}

/** The first `max` UTF-16 units of `s`, one fewer if the last would be half a surrogate pair. */
function cutUnits(s: string, max: number): string {
  const cut = s.slice(0, Math.max(0, max));
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** Escapes the three characters Slack's mrkdwn reserves (…/formatting#escaping). */
export function escapeEntities(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Reads escaped text back (Slack sends typed text so escaped; a refusal kept as plain text). */
export function unescapeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * Outside text as an inline code span: no mention, link, emoji or formatting inside it is
 * live, it stays on one line, and a backtick (which would close the span) becomes a look-alike.
 * An empty value reads as "(empty)".
 */
export function val(value: string | number | null | undefined, max = VALUE_MAX): Mrkdwn {
  if (value == null) return '—' as Mrkdwn;
  const s = oneLine(String(value), max);
  if (s.trim() === '') return '_(empty)_' as Mrkdwn;
  return ('`' + escapeEntities(s.replace(/`/g, 'ˋ')) + '`') as Mrkdwn;
}

/** A preformatted block (a request body): many lines kept, everything else as in `val`. */
export function codeBlock(text: string, max = 2000): Mrkdwn {
  const s = text.replace(CONTROLS, '\ufffd').replace(/`/g, 'ˋ');
  const cut = s.length <= max ? s : cutUnits(s, max - 1) + '…';
  return ('```' + escapeEntities(cut) + '```') as Mrkdwn;
}

/** A message's words as the audit trail keeps them (a refusal worded to a person): no leading emoji, no markup, entities unescaped. */
export function auditWords(text: Mrkdwn, max = VALUE_MAX): string {
  return unescapeEntities(text.replace(/^:[a-z_]+: /, '').replace(/[`*_]/g, '')).slice(0, max);
}

/** Text for a `plain_text` object (headers, buttons, options): never parsed, but kept to one line. */
export function plain(text: string, max = VALUE_MAX): string {
  return oneLine(text, max);
}

const USER_ID = /^[UW][A-Z0-9]{2,20}$/;
const CHANNEL_ID = /^[CGD][A-Z0-9]{2,20}$/;

/** `<@U…>` for a real user id; anything else is shown as a value, never as markup. */
export function mention(userId: string | null | undefined, fallback = 'someone'): Mrkdwn {
  if (!userId) return escapeEntities(oneLine(fallback)) as Mrkdwn;
  return USER_ID.test(userId) ? (`<@${userId}>` as Mrkdwn) : val(userId);
}

export function channelRef(channelId: string): Mrkdwn {
  return CHANNEL_ID.test(channelId) ? (`<#${channelId}>` as Mrkdwn) : val(channelId);
}

/**
 * A link, only to an http(s) URL with a host. The target is re-serialised by the URL parser
 * and the characters that end Slack's link syntax (`|`, `>`, `<`) are percent-encoded, so a
 * value like `evil.example/login|docs.example` cannot forge a label. The label is a value.
 * Anything that does not parse is shown as a plain value, unlinked.
 */
export function link(url: string, label?: string): Mrkdwn {
  const href = safeHref(url);
  const shown = label ?? url;
  if (!href) return val(shown);
  return `<${href}|${escapeEntities(oneLine(shown).replace(/[|`*_~]/g, (c) => LOOKALIKE[c]!))}>` as Mrkdwn;
}

/** `https://` + a cloud-given host name (a worker's fqdn), only if it is a plain DNS name. */
export function hostLink(host: string | null | undefined): Mrkdwn {
  if (!host) return '—' as Mrkdwn;
  return /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/i.test(host)
    ? link(`https://${host}`, host)
    : val(host);
}

// Inside a link label formatting is still live and `|` would split the label.
const LOOKALIKE: Record<string, string> = { '|': '¦', '`': 'ˋ', '*': '∗', _: 'ˍ', '~': '∼' };

function safeHref(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || !u.hostname || u.username || u.password) return undefined;
  return u.href.replace(/[|<> ]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()).replace(/&/g, '&amp;');
}

/** Slack's own date formatting in each reader's time zone, with an escaped fallback. */
export function date(epochMs: number, fallback: string): Mrkdwn {
  return `<!date^${Math.floor(epochMs / 1000)}^{date_short_pretty} {time}|${escapeEntities(oneLine(fallback)).replace(/\|/g, '¦')}>` as Mrkdwn;
}

/**
 * Cuts mrkdwn to `max` characters without leaving half a token: never inside an inline code
 * span (an unclosed backtick would set the rest live), an entity (`&amp;`) or `<…>` markup.
 */
export function cutMrkdwn(text: Mrkdwn, max: number): Mrkdwn {
  if (text.length <= max) return text;
  let s = cutUnits(text, max - 1);
  const lastAmp = s.lastIndexOf('&');
  if (lastAmp >= 0 && !s.slice(lastAmp).includes(';')) s = s.slice(0, lastAmp);
  const lastLt = s.lastIndexOf('<');
  if (lastLt >= 0 && !s.slice(lastLt).includes('>')) s = s.slice(0, lastLt);
  if ((s.match(/`/g)?.length ?? 0) % 2 === 1) s = s.slice(0, s.lastIndexOf('`'));
  return (s + '…') as Mrkdwn;
}
