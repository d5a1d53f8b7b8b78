/**
 * Checks shared by the notification view tests (issue 13): a reply is valid Block Kit and
 * nothing an outside value put in it is live — in the notification text, the blocks, and
 * (bidi only) the plain text of headers and buttons.
 */
import { expect } from 'vitest';
import type { Reply } from '../../../src/views/types.js';
import { assertBlockKitValid } from '../../rig/block-kit-limits.js';
import { HOSTILE_MARKER, NOTHING_LIVE } from '../../rig/hostile-strings.js';
import { checkPayload } from '../../rig/mrkdwn-abuse-checker.js';

/** Every button of a reply (action_id, value, text). */
export function buttonsOf(r: Reply): { actionId: string; value: string; text: string; blockId: string }[] {
  const out: { actionId: string; value: string; text: string; blockId: string }[] = [];
  for (const b of r.blocks) {
    if (b.type !== 'actions') continue;
    for (const e of b.elements) if (e.type === 'button') out.push({ actionId: e.action_id!, value: e.value ?? '', text: e.text.text, blockId: b.block_id ?? '' });
  }
  return out;
}

/** All text a person reads (mrkdwn and plain), button values left out (they are data, never shown). */
export function shownJson(r: Reply): string {
  return JSON.stringify(r, (k, v: unknown) => (k === 'value' ? undefined : v));
}

/** Valid, inert, and (when `shown`) the hostile value did appear somewhere, as a value. */
export function expectInert(r: Reply, shown = true): void {
  assertBlockKitValid({ text: r.text, blocks: r.blocks });
  expect(checkPayload({ text: r.text, blocks: r.blocks }, NOTHING_LIVE, 'reply')).toEqual([]);
  const json = shownJson(r);
  expect(json).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  // The notification text mentions nobody and is never a broadcast.
  expect(r.text).not.toMatch(/<[@!#]/);
  if (shown) expect(json).toContain(HOSTILE_MARKER);
}
