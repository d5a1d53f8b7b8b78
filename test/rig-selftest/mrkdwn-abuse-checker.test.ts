/**
 * The hostile-output checker on its own: what it must report, what it must let through, and
 * that text rendered without escaping is caught while the same text through `val` is not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { date, hostLink, link, md, mention, val } from '../../src/views/mrkdwn.js';
import { HOSTILE_MARKER, hostileString } from '../rig/hostile-strings.js';
import { checkMrkdwn, checkPayload, checkSlackOutput, type AbuseAllow } from '../rig/mrkdwn-abuse-checker.js';

const M = HOSTILE_MARKER;
const allow: AbuseAllow = {
  users: ['UALICE0001'],
  channels: ['CAUDIT0001'],
  url: (u) => u === 'https://api-1.workers.example.net/',
  marker: M,
};
const rules = (s: string) => checkMrkdwn(s, allow, 't').map((f) => f.rule);

describe('checkMrkdwn reports', () => {
  it.each([
    ['<!channel> hi', 'special-mention'],
    ['hi <!here|here>', 'special-mention'],
    ['<!subteam^S1>', 'special-mention'],
    ['<!date^1700000000^{date}|x> <!date^17|x', undefined], // closed date token is fine; the second never closes
    ['<@U1>', 'mention'],
    ['<@UALICE0001|alice>', 'mention'], // only the bare id form is what the bot writes
    ['<#C1>', 'channel'],
    ['<http://x|y>', 'link'],
    ['<https://api-1.workers.example.net/|api-1>', undefined],
    ['<https://api-1.workers.example.net/evil|api-1>', 'link'],
    ['<mailto:a@b.example>', 'link'],
    [`\`${M}\` and ${M}`, 'outside-code'],
    [`*${M}*`, 'outside-code'],
    [`\`${M}\nsecond line\``, 'newline-in-code'],
    [`\`${M}\u202e\``, 'bidi'],
    [`<https://api-1.workers.example.net/|${M}>`, undefined], // a label of a meant link is the bot's
    [`<https://api-1.workers.example.net/|*${M}*>`, 'label-formatting'],
  ])('%j → %s', (text, rule) => {
    const found = rules(text);
    if (rule) expect(found).toContain(rule);
    else expect(found).toEqual([]);
  });

  it('lets through what the bot legitimately writes', () => {
    expect(rules('Requested by <@UALICE0001> · audit in <#CAUDIT0001>')).toEqual([]);
    expect(rules(`\`${M} &lt;!here&gt; &amp;\` and \`\`\`${M}\n${M}\`\`\``)).toEqual([]);
    expect(rules('*bold* _our own_ :white_check_mark: a < b')).toEqual([]);
  });
});

describe('checkPayload and checkSlackOutput', () => {
  const hostileBlocks = [
    { type: 'section', text: { type: 'mrkdwn', text: 'ok' }, fields: [{ type: 'mrkdwn', text: '<!here>' }] },
    { type: 'context', elements: [{ type: 'mrkdwn', text: '<@U1>' }, { type: 'plain_text', text: '\u202e' }] },
    { type: 'header', text: { type: 'plain_text', text: `<!channel> ${M}` } }, // plain_text: not parsed
    { type: 'actions', elements: [{ type: 'checkboxes', options: [{ text: { type: 'mrkdwn', text: '<#C1>' }, value: '<!here>' }] }] },
  ];

  it('walks sections, fields, context elements, options and nested views', () => {
    const found = checkPayload({ text: `<http://x|y>`, blocks: hostileBlocks }, allow, 'm');
    expect(found.map((f) => f.rule).sort()).toEqual(['bidi', 'channel', 'link', 'mention', 'special-mention']);
    const view = checkPayload({ view: { title: { type: 'plain_text', text: 'x' }, blocks: hostileBlocks } }, allow, 'v');
    expect(view).toHaveLength(4);
  });

  it('reads only the methods that show something, plus response_url posts', () => {
    const calls = [
      { method: 'chat.update', params: { text: '<!here>' } },
      { method: 'users.info', params: { text: '<!here>' } },
      { method: 'views.open', params: { view: { blocks: hostileBlocks } } },
    ];
    const found = checkSlackOutput(calls, [{ body: { text: '<@U1>' } }], allow);
    expect(found.map((f) => f.where.split(' ')[0])).toEqual(['chat.update#0', ...Array(4).fill('views.open#2'), 'response_url#0']);
  });
});

describe('escaping on vs off', () => {
  // A deliberately unescaped stand-in for `val`: what a view would send without the safe layer.
  const unescaped = (s: string) => s;

  it('any hostile value is caught when unescaped and clean through val/link/hostLink', () => {
    fc.assert(
      fc.property(hostileString, (h) => {
        expect(rules(`Server ${unescaped(h)} is *running*`).length).toBeGreaterThan(0);
        expect(rules(md`Server ${val(h)} is *running* for ${mention('UALICE0001')} since ${date(1.7e12, '2023-11-14 22:13')}`)).toEqual([]);
        expect(checkMrkdwn(link(`https://evil.example/${h}`, h), { ...allow, url: () => true }, 't').map((f) => f.rule)).toEqual([]);
        // A host that is a plain DNS name is linked to exactly https://host/, anything else is a value.
        expect(checkMrkdwn(hostLink(h), { ...allow, url: (u) => u === `https://${h.toLowerCase()}/` }, 't')).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('the fragments the issue names are each caught when unescaped', () => {
    for (const [h, rule] of [
      ['<!channel>', 'special-mention'],
      ['<!here>', 'special-mention'],
      ['<!subteam^S1>', 'special-mention'],
      ['<@U1>', 'mention'],
      ['<#C1>', 'channel'],
      ['<http://x|y>', 'link'],
      ['x\ny', 'newline-in-code'],
      ['\u202e', 'bidi'],
    ] as const) {
      expect(rules(`\`${unescaped(h)}\``), h).toContain(rule);
      expect(rules(md`${val(h)}`), h).toEqual([]);
    }
  });
});
