/**
 * Finds chat output a hostile value could abuse. Slack parses a message's `text` and every
 * `mrkdwn` text object for markup (https://api.slack.com/reference/surfaces/formatting):
 * `<!here>`-style special mentions, `<@U…>`, `<#C…>`, links `<url|label>` / `<url>`, and
 * formatting. The rules, for every mrkdwn string the bot sent:
 *
 * 1. Every `<…>` is markup the bot meant: `<@ID>` only for the actors the test used,
 *    `<#ID>` only for the channels it allows, `<!date^…|…>` date tokens and no other `<!…>`,
 *    and a link only to a URL the test expects. A `<` that never closes forms no markup and
 *    is not reported (Slack shows it as text).
 * 2. The hostile marker (every hostile value starts with it) appears only inside an inline
 *    code span or a code block: outside text is shown only as a value, never as live
 *    formatting.
 * 3. An inline code span never holds a line break: a value stays on one line, so it cannot
 *    start a quote, a list or a fake message below it.
 * 4. No bidirectional control (U+202A–U+202E, U+2066–U+2069) anywhere, plain_text included:
 *    it can make a line read backwards.
 * 5. The label of a link the bot meant has no formatting character or line break (`link()`
 *    swaps them for look-alikes); the label is the bot's text about its own target, so the
 *    marker may appear in it.
 *
 * plain_text objects (headers, buttons, options) are never parsed, so only rule 4 applies.
 */

export interface AbuseAllow {
  /** User ids the bot may mention (the acting users it knows). */
  users: readonly string[];
  /** Channel ids it may link (`<#C…>`). */
  channels: readonly string[];
  /** Whether a link target is one the bot meant (e.g. https:// + a worker's valid fqdn). */
  url: (url: string) => boolean;
  marker: string;
}

export interface Finding {
  /** Where it was seen, e.g. `chat.postMessage#3 blocks[1].text`. */
  where: string;
  rule: 'mention' | 'channel' | 'special-mention' | 'link' | 'label-formatting' | 'outside-code' | 'newline-in-code' | 'bidi';
  excerpt: string;
}

const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
const DATE_TOKEN = /^!date\^\d+\^[^|]*\|[^|]*$/;

const excerpt = (s: string, at: number) => JSON.stringify(s.slice(Math.max(0, at - 20), at + 40));

export function checkPlain(text: string, where: string): Finding[] {
  const m = BIDI.exec(text);
  return m ? [{ where, rule: 'bidi', excerpt: excerpt(text, m.index) }] : [];
}

/** Rule 1 for the inside of one `<…>`. */
function classify(token: string, allow: AbuseAllow): Finding['rule'] | undefined {
  if (token.startsWith('@')) return allow.users.includes(token.slice(1)) ? undefined : 'mention';
  if (token.startsWith('#')) return allow.channels.includes(token.slice(1)) ? undefined : 'channel';
  if (token.startsWith('!')) return DATE_TOKEN.test(token) ? undefined : 'special-mention';
  const url = token.split('|')[0]!;
  return allow.url(url) ? undefined : 'link';
}

export function checkMrkdwn(text: string, allow: AbuseAllow, where: string): Finding[] {
  const found: Finding[] = [...checkPlain(text, where)];
  const add = (rule: Finding['rule'], at: number) => found.push({ where, rule, excerpt: excerpt(text, at) });
  let inBlock = false;
  let inCode = false;
  for (let i = 0; i < text.length; ) {
    if (text.startsWith('```', i) && !inCode) {
      inBlock = !inBlock;
      i += 3;
      continue;
    }
    const c = text[i]!;
    if (c === '`' && !inBlock) inCode = !inCode;
    else if (c === '\n' && inCode) add('newline-in-code', i);
    else if (c === '<') {
      const end = text.indexOf('>', i + 1);
      if (end >= 0) {
        const rule = classify(text.slice(i + 1, end), allow);
        if (rule) add(rule, i);
        // A label is shown as text, and formatting inside it is live (rule 5).
        const [target = '', ...label] = text.slice(i + 1, end).split('|');
        if (!rule && !/^[@#!]/.test(target) && /[*_~`\n]/.test(label.join('|'))) add('label-formatting', i);
        i = end + 1;
        continue;
      }
    } else if (!inCode && !inBlock && text.startsWith(allow.marker, i)) add('outside-code', i);
    i++;
  }
  return found;
}

/**
 * Every text object in a Slack payload (message, view, response_url body), recursively:
 * sections, fields, context elements, options, accessories, modal title/submit, etc.
 * `text` at the top level of a message is mrkdwn (it feeds notifications too).
 */
export function checkPayload(payload: Record<string, unknown>, allow: AbuseAllow, where: string): Finding[] {
  const found: Finding[] = [];
  if (typeof payload.text === 'string') found.push(...checkMrkdwn(payload.text, allow, `${where} text`));
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.type === 'mrkdwn' && typeof o.text === 'string') found.push(...checkMrkdwn(o.text, allow, path));
      else if (o.type === 'plain_text' && typeof o.text === 'string') found.push(...checkPlain(o.text, path));
      else for (const [k, x] of Object.entries(o)) walk(x, `${path}.${k}`);
    }
  };
  for (const key of ['blocks', 'attachments', 'view', 'unfurls'] as const) walk(payload[key], `${where} ${key}`);
  return found;
}

/** Slack Web API methods whose parameters carry something a person reads. */
const SHOWN = new Set(['chat.postMessage', 'chat.update', 'chat.postEphemeral', 'chat.scheduleMessage', 'chat.unfurl', 'views.open', 'views.update', 'views.push', 'views.publish']);

export interface ShownCall {
  method: string;
  params: Record<string, unknown>;
}

/** Checks recorded Web API calls and response_url posts (`{ url?, body }`). */
export function checkSlackOutput(
  calls: readonly ShownCall[],
  posts: readonly { body: Record<string, unknown> }[],
  allow: AbuseAllow,
): Finding[] {
  const found: Finding[] = [];
  calls.forEach((c, i) => {
    if (SHOWN.has(c.method)) found.push(...checkPayload(c.params, allow, `${c.method}#${i}`));
    // A workflow step's error is shown in Workflow Builder; its outputs flow into later steps' messages.
    if (c.method === 'functions.completeError' && typeof c.params.error === 'string') found.push(...checkMrkdwn(c.params.error, allow, `${c.method}#${i} error`));
    if (c.method === 'functions.completeSuccess' && c.params.outputs && typeof c.params.outputs === 'object') {
      for (const [k, v] of Object.entries(c.params.outputs)) if (typeof v === 'string') found.push(...checkPlain(v, `${c.method}#${i} outputs.${k}`));
    }
  });
  posts.forEach((p, i) => found.push(...checkPayload(p.body, allow, `response_url#${i}`)));
  return found;
}
