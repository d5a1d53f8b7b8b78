import { describe, expect, it } from 'vitest';
import { assertBlockKitValid, BlockKitError, findBlockKitViolations } from '../rig/block-kit-limits.js';

const plain = (text: string) => ({ type: 'plain_text', text });
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const section = (text = 'hi') => ({ type: 'section', text: mrkdwn(text) });
const button = (over: Record<string, unknown> = {}) => ({ type: 'button', action_id: 'go', text: plain('Go'), value: 'v', ...over });
const option = (value: string, text = value) => ({ text: plain(text), value });
const modal = (over: Record<string, unknown> = {}) => ({
  type: 'modal',
  title: plain('Title'),
  submit: plain('Save'),
  blocks: [{ type: 'input', block_id: 'name', label: plain('Name'), element: { type: 'plain_text_input', action_id: 'name' } }],
  ...over,
});
const paths = (payload: unknown) => findBlockKitViolations(payload).map((v) => v.path);
const times = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));

describe('assertBlockKitValid', () => {
  it('accepts a realistic message and modal', () => {
    expect(() =>
      assertBlockKitValid({
        text: 'Reinstall server 42?',
        blocks: [
          { type: 'header', text: plain('Reinstall server 42') },
          { type: 'section', fields: [mrkdwn('*OS*\nDebian 12'), mrkdwn('*Plan*\nc2-small')] },
          { type: 'context', elements: [mrkdwn('requested by <@UALICE0001>')] },
          { type: 'divider' },
          {
            type: 'actions',
            block_id: 'confirm',
            elements: [
              button({ action_id: 'confirm', style: 'danger', confirm: { title: plain('Sure?'), text: mrkdwn('Wipes the disk'), confirm: plain('Yes'), deny: plain('No') } }),
              button({ action_id: 'cancel' }),
            ],
          },
        ],
      }),
    ).not.toThrow();
    expect(() => assertBlockKitValid(modal({ private_metadata: 'x'.repeat(3000), callback_id: 'c'.repeat(255) }))).not.toThrow();
  });

  it('throws a BlockKitError listing every violation with its JSON pointer', () => {
    const payload = { blocks: [{ type: 'header', text: plain('h'.repeat(151)) }, { type: 'nonsense' }] };
    let err: unknown;
    try {
      assertBlockKitValid(payload);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BlockKitError);
    expect((err as BlockKitError).violations.map((v) => v.path)).toEqual(['/blocks/0/text/text', '/blocks/1/type']);
    expect((err as Error).message).toContain('/blocks/0/text/text: must be at most 150 characters (has 151)');
  });

  it('limits blocks: 50 per message, 100 per modal', () => {
    expect(paths({ blocks: times(50, () => section()) })).toEqual([]);
    expect(paths({ blocks: times(51, () => section()) })).toEqual(['/blocks']);
    expect(paths(modal({ blocks: times(100, () => section()), submit: undefined }))).toEqual([]);
    expect(paths(modal({ blocks: times(101, () => section()), submit: undefined }))).toEqual(['/blocks']);
  });

  it('limits modal title, submit and close to 24 characters, private_metadata to 3000', () => {
    expect(paths(modal({ title: plain('t'.repeat(24)) }))).toEqual([]);
    expect(paths(modal({ title: plain('t'.repeat(25)), submit: plain('s'.repeat(25)), close: plain('c'.repeat(25)) }))).toEqual([
      '/title/text',
      '/submit/text',
      '/close/text',
    ]);
    expect(paths(modal({ private_metadata: 'x'.repeat(3001) }))).toEqual(['/private_metadata']);
    expect(paths(modal({ title: mrkdwn('Title') }))).toEqual(['/title/type']);
    expect(paths(modal({ title: undefined }))).toEqual(['/title']);
  });

  it('requires submit on a modal with inputs', () => {
    expect(paths(modal({ submit: undefined }))).toEqual(['/submit']);
  });

  it('limits ids to 255 characters and rejects duplicates', () => {
    const id = 'i'.repeat(256);
    expect(paths({ blocks: [{ ...section(), block_id: id }] })).toEqual(['/blocks/0/block_id']);
    expect(paths({ blocks: [{ type: 'actions', elements: [button({ action_id: id })] }] })).toEqual(['/blocks/0/elements/0/action_id']);
    expect(paths(modal({ callback_id: id }))).toEqual(['/callback_id']);
    expect(paths({ blocks: [{ ...section(), block_id: 'a' }, { ...section(), block_id: 'a' }] })).toEqual(['/blocks/1/block_id']);
    expect(paths({ blocks: [{ type: 'actions', elements: [button(), button()] }] })).toEqual(['/blocks/0/elements/1/action_id']);
  });

  it('limits section text 3000, fields 10 × 2000, header 150', () => {
    expect(paths({ blocks: [section('s'.repeat(3000))] })).toEqual([]);
    expect(paths({ blocks: [section('s'.repeat(3001))] })).toEqual(['/blocks/0/text/text']);
    expect(paths({ blocks: [{ type: 'section', fields: times(11, () => mrkdwn('f')) }] })).toEqual(['/blocks/0/fields']);
    expect(paths({ blocks: [{ type: 'section', fields: [mrkdwn('f'.repeat(2001))] }] })).toEqual(['/blocks/0/fields/0/text']);
    expect(paths({ blocks: [{ type: 'section' }] })).toEqual(['/blocks/0']);
    expect(paths({ blocks: [{ type: 'header', text: mrkdwn('h') }] })).toEqual(['/blocks/0/text/type']);
  });

  it('limits actions to 25 elements and context to 10', () => {
    const actions = (n: number) => ({ type: 'actions', elements: times(n, (i) => button({ action_id: `a${i}` })) });
    expect(paths({ blocks: [actions(25)] })).toEqual([]);
    expect(paths({ blocks: [actions(26)] })).toEqual(['/blocks/0/elements']);
    expect(paths({ blocks: [{ type: 'context', elements: times(11, () => mrkdwn('c')) }] })).toEqual(['/blocks/0/elements']);
    expect(paths({ blocks: [{ type: 'actions', elements: [] }] })).toEqual(['/blocks/0/elements']);
  });

  it('limits button text 75, value 2000, url 3000', () => {
    const el = (over: Record<string, unknown>) => ({ blocks: [{ type: 'actions', elements: [button(over)] }] });
    expect(paths(el({ text: plain('b'.repeat(75)), value: 'v'.repeat(2000) }))).toEqual([]);
    expect(paths(el({ text: plain('b'.repeat(76)) }))).toEqual(['/blocks/0/elements/0/text/text']);
    expect(paths(el({ value: 'v'.repeat(2001) }))).toEqual(['/blocks/0/elements/0/value']);
    expect(paths(el({ url: `https://x/${'u'.repeat(3000)}` }))).toEqual(['/blocks/0/elements/0/url']);
    expect(paths(el({ style: 'loud' }))).toEqual(['/blocks/0/elements/0/style']);
    expect(paths(el({ text: mrkdwn('b') }))).toEqual(['/blocks/0/elements/0/text/type']);
  });

  it('limits select options 100, option text 75 / value 150, overflow 1–5, and checks initial_option', () => {
    const select = (over: Record<string, unknown>) => ({
      blocks: [{ type: 'actions', elements: [{ type: 'static_select', action_id: 's', placeholder: plain('Pick'), ...over }] }],
    });
    expect(paths(select({ options: times(100, (i) => option(`v${i}`)) }))).toEqual([]);
    expect(paths(select({ options: times(101, (i) => option(`v${i}`)) }))).toEqual(['/blocks/0/elements/0/options']);
    expect(paths(select({ options: [option('v'.repeat(151), 'ok')] }))).toEqual(['/blocks/0/elements/0/options/0/value']);
    expect(paths(select({ options: [option('v', 't'.repeat(76))] }))).toEqual(['/blocks/0/elements/0/options/0/text/text']);
    expect(paths(select({ options: [option('a')], initial_option: option('b') }))).toEqual(['/blocks/0/elements/0/initial_option']);
    expect(paths(select({ options: [option('a')], placeholder: plain('p'.repeat(151)) }))).toEqual(['/blocks/0/elements/0/placeholder/text']);
    expect(paths(select({ option_groups: times(101, (i) => ({ label: plain('g'), options: [option(`v${i}`)] })) }))).toEqual([
      '/blocks/0/elements/0/option_groups',
    ]);
    const overflow = (n: number) => ({ blocks: [{ type: 'actions', elements: [{ type: 'overflow', action_id: 'o', options: times(n, (i) => option(`v${i}`)) }] }] });
    expect(paths(overflow(5))).toEqual([]);
    expect(paths(overflow(6))).toEqual(['/blocks/0/elements/0/options']);
    expect(paths(overflow(0))).toEqual(['/blocks/0/elements/0/options']);
  });

  it('limits plain_text_input max_length to 1–3000 and input label/hint to 2000', () => {
    const input = (element: Record<string, unknown>, over: Record<string, unknown> = {}) =>
      modal({ blocks: [{ type: 'input', label: plain('L'), element: { type: 'plain_text_input', action_id: 'i', ...element }, ...over }] });
    expect(paths(input({ max_length: 3000, min_length: 1 }))).toEqual([]);
    expect(paths(input({ max_length: 3001 }))).toEqual(['/blocks/0/element/max_length']);
    expect(paths(input({ max_length: 0 }))).toEqual(['/blocks/0/element/max_length']);
    expect(paths(input({ max_length: 5, min_length: 6 }))).toEqual(['/blocks/0/element/min_length']);
    expect(paths(input({}, { label: plain('l'.repeat(2001)), hint: plain('h'.repeat(2001)) }))).toEqual([
      '/blocks/0/label/text',
      '/blocks/0/hint/text',
    ]);
    expect(paths(input({}, { element: { type: 'button', action_id: 'b', text: plain('x') } }))).toEqual(['/blocks/0/element/type']);
  });

  it('limits confirm dialogs: title 100, text 300, buttons 30', () => {
    const confirm = { title: plain('t'.repeat(101)), text: mrkdwn('x'.repeat(301)), confirm: plain('c'.repeat(31)), deny: plain('d'.repeat(31)) };
    expect(paths({ blocks: [{ type: 'actions', elements: [button({ confirm })] }] })).toEqual([
      '/blocks/0/elements/0/confirm/title/text',
      '/blocks/0/elements/0/confirm/text/text',
      '/blocks/0/elements/0/confirm/confirm/text',
      '/blocks/0/elements/0/confirm/deny/text',
    ]);
  });

  it('keeps message text under 4000 characters', () => {
    expect(paths({ text: 'x'.repeat(3999) })).toEqual([]);
    expect(paths({ text: 'x'.repeat(4000) })).toEqual(['/text']);
  });

  it('checks structure: known block types, required type, text objects', () => {
    expect(paths({ blocks: [{ text: mrkdwn('no type') }] })).toEqual(['/blocks/0/type']);
    expect(paths({ blocks: [{ type: 'table' }] })).toEqual(['/blocks/0/type']);
    expect(paths({ blocks: [{ type: 'section', text: 'bare string' }] })).toEqual(['/blocks/0/text']);
    expect(paths({ blocks: [{ type: 'section', text: { type: 'markdown', text: 'x' } }] })).toEqual(['/blocks/0/text/type']);
    expect(paths({ blocks: [section('')] })).toEqual(['/blocks/0/text/text']);
    expect(paths({ blocks: [{ type: 'section', text: { ...mrkdwn('x'), emoji: true } }] })).toEqual(['/blocks/0/text/emoji']);
    expect(paths({ blocks: 'nope' })).toEqual(['/blocks']);
    expect(paths('nope')).toEqual(['']);
    expect(paths([section(), { type: 'divider' }])).toEqual([]);
  });
});
