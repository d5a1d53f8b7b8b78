/** Block Kit and mrkdwn as terminal text: pure functions, no shell around them. */
import { readdirSync, readFileSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineReader } from '../../src/shell/line-reader.js';
import { terminalSafe } from '../../src/shell/mrkdwn-text.js';
import { compactUpdate, messageLabel, mrkdwnToText, renderBlocks, renderEntry, type ButtonRef } from '../../src/shell/render-text.js';
import { buildStatusMessage } from '../../src/views/status-views.js';
import { actions, button, context, divider, fields, header, section } from '../../src/views/blocks.js';
import { hostLink, md, val } from '../../src/views/mrkdwn.js';
import type { OperationRecord } from '../../src/store/types.js';

const ctx = { userId: 'UME', channels: { CSHELL: 'shell' } };
const counter = () => {
  let n = 0;
  const seen: ButtonRef[] = [];
  return Object.assign((b: ButtonRef) => (seen.push(b), ++n), { seen });
};

describe('mrkdwnToText', () => {
  it('drops bold, italic and strike markers and keeps inline code in backticks', () => {
    expect(mrkdwnToText('*Deploy* _now_ ~never~ `ssh_key_ids` and snake_case_name', ctx)).toBe('Deploy now never `ssh_key_ids` and snake_case_name');
  });

  it('reads mentions, channels and links', () => {
    expect(mrkdwnToText('<@UME> and <@UOTHER> in <#CSHELL> or <#CX|ops>; <!here>', ctx)).toBe('@you and @UOTHER in #shell or #ops; @here');
    expect(mrkdwnToText('see <https://example.com/a?b=1&amp;c=2|the docs>', ctx)).toBe('see the docs (https://example.com/a?b=1&c=2)');
    expect(mrkdwnToText('at <https://demo.example.net|demo.example.net> or <https://x.test>', ctx)).toBe('at https://demo.example.net or https://x.test');
    expect(mrkdwnToText(hostLink('demo.example.net'), ctx)).toBe('https://demo.example.net/');
  });

  it('turns known emoji into symbols and leaves others (and IPv6) alone', () => {
    expect(mrkdwnToText(':white_check_mark: ok :x: no :warning: :party_parrot: ::ffff:10.0.0.1', ctx)).toBe('✔ ok ✘ no ⚠ :party_parrot: ::ffff:10.0.0.1');
  });

  it('draws every emoji code the bot writes (src/) as a symbol, never as :code: text', () => {
    const root = new URL('../../src/', import.meta.url);
    const codes = new Set<string>();
    for (const f of readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.ts'))) {
      // A code the bot writes starts a word (not IPv6's `::ffff:`) and is no doc comment's `:code:`.
      for (const m of readFileSync(new URL(f, root), 'utf8').matchAll(/(?<![:\w]):([a-z][a-z0-9_+-]*):(?![\w`])/g)) codes.add(m[1]!);
    }
    expect(codes.size).toBeGreaterThan(15);
    expect([...codes].filter((c) => mrkdwnToText(`:${c}:`, ctx) === `:${c}:`)).toEqual([]);
    expect(mrkdwnToText(':bell: :zzz: :no_bell:', ctx)).toBe('🔔 💤 🔕');
  });

  it('undoes Slack’s three escapes, in code too', () => {
    expect(mrkdwnToText('a &lt;b&gt; &amp; `x &lt; y`', ctx)).toBe('a <b> & `x < y`');
  });

  it('indents code blocks', () => {
    expect(mrkdwnToText('body:\n```{\n  "a": 1\n}```', ctx)).toBe('body:\n\n  {\n    "a": 1\n  }');
  });

  it('styles with ANSI on a terminal instead', () => {
    expect(mrkdwnToText('*b* `c`', { ...ctx, ansi: true })).toBe('\x1b[1mb\x1b[22m \x1b[36mc\x1b[39m');
  });
});

describe('renderBlocks', () => {
  it('shows headers, sections, fields, context and dividers', () => {
    const lines = renderBlocks(
      [header('Account usage'), section(md`*Servers*: 4`), fields([[md`CPU`, md`9 of 32`], [md`Disk`, md`380 GB`]]), divider(), context(md`Requested by <@UME>`, md`now`)],
      ctx,
      counter(),
    );
    expect(lines).toEqual(['== Account usage ==', 'Servers: 4', '  CPU: 9 of 32', '  Disk: 380 GB', '────────────────────────────────', 'Requested by @you  now']);
  });

  it('lists buttons by number, as the caller numbers them', () => {
    const numberFor = counter();
    const lines = renderBlocks([actions('op:1', [button({ text: 'Confirm', actionId: 'op_confirm', value: '1' }), button({ text: 'Cancel', actionId: 'op_cancel', value: '1' })])], ctx, numberFor);
    expect(lines).toEqual(['[1] Confirm  [2] Cancel']);
    expect(numberFor.seen.map((b) => [b.blockId, b.element.action_id])).toEqual([['op:1', 'op_confirm'], ['op:1', 'op_cancel']]);
  });

  it('renders a real status message readably', () => {
    const record = {
      id: 'op1', opId: 'worker.deploy', status: 'pending', requestedBy: 'UME', expiresAt: 600_000, createdAt: 0,
    } as unknown as OperationRecord;
    const reply = buildStatusMessage({ record, title: md`Deploy worker ${val('demo')}`, lines: [md`From ${val('repo')}.`], request: { method: 'POST', path: '/workers' }, needsConfirm: true, now: 0 });
    expect(renderBlocks(reply.blocks, ctx, counter())).toEqual([
      '⚠ Deploy worker `demo` — awaiting confirmation',
      '• From `repo`.',
      'Requested by @you · expires 1970-01-01 00:10 UTC',
      '[1] Confirm  [2] Cancel',
    ]);
  });
});

describe('renderEntry', () => {
  const blocks = [section(md`:arrows_counterclockwise: status pending`)];
  it('heads a channel message, an edit, an ephemeral reply and a thread reply', () => {
    expect(renderEntry({ heading: { kind: 'message', channel: 'shell' }, text: '', blocks }, ctx, counter())).toBe('cloudbot in #shell:\n  ↻ status pending');
    expect(renderEntry({ heading: { kind: 'message', channel: 'shell', updated: true }, text: '', blocks }, ctx, counter())).toBe('cloudbot in #shell (updated):\n  ↻ status pending');
    expect(renderEntry({ heading: { kind: 'ephemeral' }, text: '', blocks }, ctx, counter())).toBe('cloudbot (only you):\n  ↻ status pending');
    expect(renderEntry({ heading: { kind: 'reply', parentLabel: 'Deploy worker “demo”: running', broadcast: true }, text: '', blocks }, ctx, counter())).toBe(
      '  ↳ in the thread of “Deploy worker “demo”: running” (also sent to the channel):\n      ↻ status pending',
    );
  });

  it('falls back to the text when there are no blocks', () => {
    expect(renderEntry({ heading: { kind: 'ephemeral' }, text: '*hi* <@UME>', blocks: [] }, ctx, counter())).toBe('cloudbot (only you):\n  hi @you');
  });

  it('labels a parent by its first line, shortened', () => {
    expect(messageLabel('*Reinstall server 104*: running\nmore', ctx)).toBe('Reinstall server 104: running');
    expect(messageLabel('x'.repeat(100), ctx)).toHaveLength(72);
    // A thread's title reads as words: no literal code marks around its values.
    expect(messageLabel('⚠ Deploy worker `demo` in location 1 (`AMS`) — awaiting confirmation', ctx)).toBe('⚠ Deploy worker demo in location 1 (AMS) — awaiting confirmation');
  });
});

describe('compactUpdate', () => {
  it('keeps the first line, shows changed lines and counts the rest', () => {
    expect(compactUpdate(['⚠ A — pending', 'x', 'y', '[1] Confirm'], ['✔ A — done', 'x', 'y', 'took 2 s'])).toEqual(['✔ A — done', 'took 2 s', '(2 more lines as before)']);
  });
});

describe('values and controls on the terminal', () => {
  it('shows a val() code span as the value, escapes undone, nothing inside it live', () => {
    const m = md`Rename ${val('<!channel> *x* `y` &amp;')} and ${val('')} and ${val(null)}`;
    expect(mrkdwnToText(m, ctx)).toBe('Rename `<!channel> *x* ˋyˋ &amp;` and (empty) and —');
    expect(mrkdwnToText(m, { ...ctx, ansi: true })).toBe('Rename \x1b[36m<!channel> *x* ˋyˋ &amp;\x1b[39m and \x1b[3m(empty)\x1b[23m and —');
  });

  it('a value that was a line break and a forged line stays on its line', () => {
    expect(mrkdwnToText(md`Server ${val('web\n:white_check_mark: *Approved*')} is up`, ctx)).toBe('Server `web :white_check_mark: *Approved*` is up');
  });

  it('turns control characters in what it renders into U+FFFD, keeping line breaks', () => {
    expect(mrkdwnToText('a\x1b[2Jb\u202Ec\u0007d\r\ne\tf', ctx)).toBe('a\ufffd[2Jb\ufffdc\ufffdd\ne f');
    expect(mrkdwnToText('a\x1b[2Jb', { ...ctx, ansi: true })).toBe('a\ufffd[2Jb');
    expect(renderBlocks([header('x\x1b]0;pwned\x07y')], ctx, counter())).toEqual(['== x\ufffd]0;pwned\ufffdy ==']);
  });

  it('a NUL in the source cannot pull in another piece of the message', () => {
    expect(mrkdwnToText('x\u00000\u0000 `c`', ctx)).toBe('x\ufffd0\ufffd `c`');
  });

  it('the output sink keeps only the styles the shell adds', () => {
    expect(terminalSafe('\x1b[1mB\x1b[22m \x1b[8mhidden\x1b[0m \x1b]0;t\x07 \u202Eq\nnext')).toBe('\x1b[1mB\x1b[22m \ufffd[8mhidden\ufffd[0m \ufffd]0;t\ufffd \ufffdq\nnext');
  });

  it('the line reader prints through that sink', () => {
    let out = '';
    const output = new Writable({ write: (chunk, _enc, done) => ((out += String(chunk)), done()) });
    const reader = new LineReader(new PassThrough(), output, false);
    reader.print('ok \x1b[2J\x1b[H gone');
    reader.close();
    expect(out).toBe('ok \ufffd[2J\ufffd[H gone\n');
  });
});
