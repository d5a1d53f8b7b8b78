/**
 * Numbers for the buttons the shell has shown. A button keeps its number while its message
 * keeps it (an edit that still shows Confirm shows the same [n]); a press is checked against
 * the message as it is now, so a button that is gone cannot be pressed — as in Slack.
 */
import type { ButtonRef } from './render-text.js';

type Json = Record<string, unknown>;

export interface Surface {
  kind: 'message' | 'ephemeral';
  /** The message's ts (or the ephemeral's message_ts). */
  ts: string;
}

export interface Registered {
  n: number;
  surface: Surface;
  blockId: string;
  actionId: string;
  value: string | undefined;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export class ButtonRegistry {
  private readonly byKey = new Map<string, number>();
  private readonly byNumber = new Map<number, Registered>();
  private next = 1;

  numberFor(surface: Surface, b: ButtonRef): number {
    const actionId = String(b.element.action_id ?? '');
    const value = typeof b.element.value === 'string' ? b.element.value : undefined;
    const key = JSON.stringify([surface.kind, surface.ts, b.blockId, actionId, value ?? null]);
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const n = this.next++;
    this.byKey.set(key, n);
    this.byNumber.set(n, { n, surface, blockId: b.blockId, actionId, value });
    return n;
  }

  get(n: number): Registered | undefined {
    return this.byNumber.get(n);
  }
}

/** The button as its message shows it now, or undefined when the message no longer has it. */
export function findButton(blocks: unknown[], r: Registered): { blockId: string; element: Json } | undefined {
  for (const [index, block] of blocks.entries()) {
    if (!isObject(block)) continue;
    const blockId = typeof block.block_id === 'string' ? block.block_id : `block-${index}`;
    if (blockId !== r.blockId) continue;
    const elements = [...(Array.isArray(block.elements) ? block.elements : []), ...(isObject(block.accessory) ? [block.accessory] : [])];
    for (const e of elements) {
      if (isObject(e) && e.type === 'button' && e.action_id === r.actionId && (typeof e.value === 'string' ? e.value : undefined) === r.value) {
        return { blockId, element: e };
      }
    }
  }
  return undefined;
}
