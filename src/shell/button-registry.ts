/**
 * Numbers for the buttons the shell has shown. A button keeps its number while its message
 * keeps it (an edit that still shows Confirm shows the same [n]); a press is checked against
 * the message as it is now, so a button that is gone cannot be pressed — as in Slack. Only
 * the newest printed message that still shows buttons takes numbers (issue 14: `2` pressed
 * "← Previous" on a list long scrolled away): an older message's number is refused.
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
  label: string;
}

const surfaceKey = (s: Surface) => `${s.kind}:${s.ts}`;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export class ButtonRegistry {
  private readonly byKey = new Map<string, number>();
  private readonly byNumber = new Map<number, Registered>();
  private next = 1;
  /** Surfaces whose last printing showed buttons, oldest first. */
  private withButtons: string[] = [];

  numberFor(surface: Surface, b: ButtonRef): number {
    const actionId = String(b.element.action_id ?? '');
    const value = typeof b.element.value === 'string' ? b.element.value : undefined;
    const key = JSON.stringify([surface.kind, surface.ts, b.blockId, actionId, value ?? null]);
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const n = this.next++;
    const text = (b.element.text as { text?: unknown } | undefined)?.text;
    this.byKey.set(key, n);
    this.byNumber.set(n, { n, surface, blockId: b.blockId, actionId, value, label: typeof text === 'string' ? text : actionId });
    return n;
  }

  /** A surface was printed (with or without buttons): the newest with buttons takes numbers. */
  printed(surface: Surface, hasButtons: boolean): void {
    const key = surfaceKey(surface);
    this.withButtons = this.withButtons.filter((k) => k !== key);
    if (hasButtons) this.withButtons.push(key);
  }

  /** Its message was deleted: its buttons take no numbers now. */
  gone(surface: Surface): void {
    this.printed(surface, false);
  }

  /** Whether `surface` is the newest printed one that shows buttons. */
  isLatest(surface: Surface): boolean {
    return this.withButtons.at(-1) === surfaceKey(surface);
  }

  /** Every button the newest surface with buttons was given a number for. */
  latest(): Registered[] {
    const key = this.withButtons.at(-1);
    return key ? [...this.byNumber.values()].filter((r) => surfaceKey(r.surface) === key) : [];
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
