/** Modal fields as prompts: answers become Slack's `view.state.values` for each element type. */
import { describe, expect, it } from 'vitest';
import { describeField, formFields, parseAnswer, stateValues, walkFields } from '../../src/shell/form-walk.js';
import { buildChangeModal } from '../../src/views/modal-views.js';
import { readModalValues } from '../../src/views/modal-views.js';
import type { ModalSpec } from '../../src/operations/types.js';

const spec: ModalSpec = {
  title: 'Test',
  submit: 'Go',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', maxLength: 5, placeholder: 'web' },
    { name: 'where', label: 'Location', kind: 'select', options: [{ value: '1', text: 'AMS' }, { value: '2', text: 'FRA' }] },
    { name: 'keys', label: 'Keys', kind: 'multi_select', optional: true, options: [{ value: '11', text: 'a' }, { value: '12', text: 'b' }] },
    { name: 'spa', label: 'SPA', kind: 'checkbox', optional: true },
  ],
};
const view = buildChangeModal({ spec, options: {}, initial: { where: '2' }, privateMetadata: '{}' }) as unknown as Record<string, unknown>;
const fields = formFields(view);
const ctx = { userId: 'UME', channels: {} };
const field = (name: string) => fields.find((f) => f.blockId === name)!;

describe('form fields', () => {
  it('finds every input with its label and whether it is optional', () => {
    expect(fields.map((f) => [f.blockId, f.label, f.optional])).toEqual([['name', 'Name', false], ['where', 'Location', false], ['keys', 'Keys', true], ['spa', 'SPA', true]]);
  });

  it('describes a select with numbered choices and what Enter keeps', () => {
    expect(describeField(field('where'), ctx)).toEqual(['Location', '  1) AMS', '  2) FRA', '  Enter keeps: FRA']);
    expect(describeField(field('keys'), ctx, 'pick one')).toEqual(['! pick one', 'Keys (optional, Enter to skip)', '  1) a', '  2) b', '  several: 1,3']);
  });

  it('a select’s placeholder is its prompt, not an example to type; a text field’s is an example', () => {
    const withPrompt = formFields(
      buildChangeModal({
        spec: { title: 'T', submit: 'Go', fields: [{ name: 'where', label: 'Location', kind: 'select', placeholder: 'Where the addresses live', options: [{ value: '1', text: 'AMS' }] }] },
        options: {},
        initial: {},
        privateMetadata: '{}',
      }) as unknown as Record<string, unknown>,
    )[0]!;
    expect(describeField(withPrompt, ctx)).toEqual(['Location', '  Where the addresses live', '  1) AMS']);
    expect(describeField(field('name'), ctx)).toContain('  e.g. web');
  });

  it('refuses what Slack’s client refuses: empty required, too long, unknown choices', () => {
    expect(parseAnswer(field('name'), '')).toEqual({ ok: false, problem: 'This field is required.' });
    expect(parseAnswer(field('name'), 'toolong')).toEqual({ ok: false, problem: 'At most 5 characters.' });
    expect(parseAnswer(field('where'), '7')).toMatchObject({ ok: false });
    expect(parseAnswer(field('spa'), 'maybe')).toEqual({ ok: false, problem: 'Answer y or n.' });
  });

  it('builds state values that the bot’s own reader maps back onto the arguments', () => {
    const answers = new Map<string, Record<string, unknown>>();
    for (const [name, line] of [['name', 'web'], ['where', ''], ['keys', '2, 1'], ['spa', 'y']] as const) {
      const parsed = parseAnswer(field(name), line);
      if (!parsed.ok) throw new Error(parsed.problem);
      answers.set(name, parsed.state);
    }
    const values = stateValues(fields, answers);
    expect(values.where!.where).toEqual({ type: 'static_select', selected_option: { text: { type: 'plain_text', text: 'FRA', emoji: true }, value: '2' } });
    expect(readModalValues(spec, values as never)).toEqual({ name: 'web', where: '2', keys: ['12', '11'], spa: true });
  });

  it('walks the fields in order, asking again until an answer is acceptable, and stops on /cancel', async () => {
    const said: string[] = [];
    const lines = ['', 'web', 'AMS', '', 'n'];
    const answers = new Map<string, Record<string, unknown>>();
    const ok = await walkFields(fields, answers, { ask: async () => lines.shift(), say: (t) => said.push(t) }, ctx);
    expect(ok).toBe(true);
    expect(said.join('\n')).toContain('! This field is required.');
    expect(readModalValues(spec, stateValues(fields, answers) as never)).toEqual({ name: 'web', where: '1', spa: false });
    const cancelled = await walkFields(fields, new Map(), { ask: async () => '/cancel', say: () => undefined }, ctx);
    expect(cancelled).toBe(false);
  });
});
