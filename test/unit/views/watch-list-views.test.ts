/** What `/cloud watch list` says it covers is a plain sentence, empty list or not. */
import { describe, expect, it } from 'vitest';
import { buildWatchList } from '../../../src/views/watch-views.js';
import { watch } from './record-fixtures.js';

const now = Date.parse('2026-11-29T11:13:00Z');
const contexts = (r: { blocks: unknown[] }): string[] =>
  (r.blocks as { type: string; elements?: { text?: string }[] }[]).filter((b) => b.type === 'context').flatMap((b) => (b.elements ?? []).map((e) => e.text ?? ''));

describe('an empty watch list', () => {
  it('in this channel: one plain sentence, no trailing space', () => {
    const [said] = contexts(buildWatchList([], now, { scope: { channelId: 'C1' } }));
    expect(said).toBe("Only the watches in this channel that you may read are listed; `/cloud watch list --all` lists every channel's.");
  });

  it('of every channel: one plain sentence, no trailing space', () => {
    const [said] = contexts(buildWatchList([], now, { scope: 'every channel' }));
    expect(said).toBe('The watches in every channel that you may read are listed.');
  });
});

describe('a watch list with watches', () => {
  it('says what it covers, then how to stop one', () => {
    const said = contexts(buildWatchList([watch()], now, { scope: { channelId: 'C1' } })).at(-1);
    expect(said).toBe("Only the watches in this channel that you may read are listed; `/cloud watch list --all` lists every channel's. Stop one with `/cloud watch cancel &lt;id&gt;`.");
  });
});
