/** The issue-23 cards are pure and inert: the Act on this modal, its answer, and an unfurl card. */
import { describe, expect, it } from 'vitest';
import { buildActOnThisModal, buildActResult, ACT_CALLBACK } from '../../../src/views/act-on-this-views.js';
import { buildUnfurlCard } from '../../../src/views/unfurl-views.js';
import { section } from '../../../src/views/blocks.js';
import { md, val } from '../../../src/views/mrkdwn.js';
import type { Block } from '../../../src/views/types.js';
import { assertBlockKitValid } from '../../rig/block-kit-limits.js';
import { HOSTILE_MARKER, NOTHING_LIVE } from '../../rig/hostile-strings.js';
import { checkPayload } from '../../rig/mrkdwn-abuse-checker.js';

const HOSTILE = `${HOSTILE_MARKER} <!channel> <@U0BAD0001> <https://evil.example|docs> *bold* \u202egnp.exe`;
const inert = (payload: { blocks?: unknown; view?: unknown }) => {
  expect(checkPayload(payload as Record<string, unknown>, { ...NOTHING_LIVE, channels: ['COPS000001'] }, 'view')).toEqual([]);
  expect(JSON.stringify(payload)).toContain(HOSTILE_MARKER);
};

describe('Act on this modal', () => {
  const item = (i: number) => ({ kind: 'server' as const, id: String(100 + i), name: `${HOSTILE} ${i}`, choices: [{ verb: 'status', tier: 'read', text: `server status ${100 + i}`, value: '{"c":"x"}' }, { verb: 'reinstall', tier: 'destroy', text: 'x', value: '{}' }] });

  it('lists each resource with its buttons; names stay values; a destroy is marked danger; within Block Kit limits', () => {
    const view = buildActOnThisModal(Array.from({ length: 10 }, (_, i) => item(i)), 'COPS000001');
    expect(view.callback_id).toBe(ACT_CALLBACK);
    expect(JSON.parse(view.private_metadata!)).toEqual({ channel: 'COPS000001' });
    assertBlockKitValid({ view });
    inert({ view });
    const buttons = (view.blocks as { type: string; elements?: unknown[] }[]).flatMap((b) => (b.type === 'actions' ? (b.elements ?? []) : [])) as { action_id: string; style?: string }[];
    expect(new Set(buttons.map((b) => b.action_id)).size).toBe(buttons.length);
    expect(buttons.filter((b) => b.style === 'danger')).toHaveLength(10);
  });

  it('says truthfully that nothing was found, offering no button', () => {
    const view = buildActOnThisModal([], 'COPS000001');
    const shown = JSON.stringify(view.blocks);
    expect(shown).toContain('names no server, security group or worker the bot knows');
    expect(view.blocks.some((b) => b.type === 'actions')).toBe(false);
  });

  it('an answer replaces the list; a change with nothing to say points at the channel', () => {
    const read = buildActResult('server status 101', { text: md`x`, blocks: [section(md`Status ${val(HOSTILE)}`)] }, 'COPS000001');
    assertBlockKitValid({ view: read });
    inert({ view: read });
    const change = JSON.stringify(buildActResult('sg deploy 7', undefined, 'COPS000001').blocks);
    expect(change).toContain('Its status message is in <#COPS000001>');
    // It may need no Confirm and be sent already (sg deploy): the modal must not ask for one.
    expect(change).not.toContain('confirm or cancel it there');
  });
});

describe('unfurl card', () => {
  it('shows the read’s answer without its own buttons, adds the reads, stays inert and within limits', () => {
    const reply = { text: md`t`, blocks: [section(md`Name ${val(HOSTILE)}`), { type: 'actions', elements: [] } as unknown as Block] };
    const card = buildUnfurlCard({ kind: 'server', id: '101', reply, reads: [{ label: 'status', value: '{"op":"server.status","args":{"server":"101"}}' }, { label: 'ips', value: '{}' }] });
    assertBlockKitValid({ blocks: card.blocks });
    inert({ blocks: card.blocks });
    const actions = card.blocks.filter((b) => b.type === 'actions');
    expect(actions).toHaveLength(1);
    expect(JSON.stringify(actions)).toContain('unfurl_read:1');
  });
});
