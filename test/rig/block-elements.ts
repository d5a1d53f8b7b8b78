/** Finding interactive elements inside blocks, and the option objects they offer. */
import { asArray, isObject, type JsonObject } from './json.js';

export interface FoundElement {
  block: JsonObject;
  blockId: string;
  element: JsonObject;
}

/** Every element with an `action_id` in `blocks` (actions, section accessories, inputs). */
export function* interactiveElements(blocks: unknown): Generator<FoundElement> {
  for (const block of asArray(blocks)) {
    if (!isObject(block)) continue;
    const blockId = typeof block.block_id === 'string' ? block.block_id : '';
    const candidates = [...asArray(block.elements), block.accessory, block.element];
    for (const element of candidates) {
      if (isObject(element) && typeof element.action_id === 'string') yield { block, blockId, element };
    }
  }
}

/** The element a test means: `actionId` alone, or `blockId` too when the id repeats across blocks. */
export function findElement(blocks: unknown, actionId: string, blockId?: string): FoundElement {
  const matches = [...interactiveElements(blocks)].filter(
    (f) => f.element.action_id === actionId && (blockId === undefined || f.blockId === blockId),
  );
  if (matches.length === 0) {
    const known = [...interactiveElements(blocks)].map((f) => `${f.blockId}/${String(f.element.action_id)}`);
    throw new Error(`no element with action_id "${actionId}" in these blocks (have: ${known.join(', ') || 'none'})`);
  }
  if (matches.length > 1) throw new Error(`action_id "${actionId}" appears in several blocks: pass blockId`);
  return matches[0] as FoundElement;
}

/** Options of a select/overflow/checkboxes/radio element, option groups flattened. */
export function elementOptions(element: JsonObject): JsonObject[] {
  const groups = asArray(element.option_groups).flatMap((g) => (isObject(g) ? asArray(g.options) : []));
  return [...asArray(element.options), ...groups].filter(isObject);
}

/** The option with `value`, or (for external selects, whose options Slack never saw) a made-up one. */
export function optionFor(element: JsonObject, value: string): JsonObject {
  const found = elementOptions(element).find((o) => o.value === value);
  if (found) return found;
  if (String(element.type).includes('external')) {
    return { text: { type: 'plain_text', text: value, emoji: true }, value };
  }
  throw new Error(`element "${String(element.action_id)}" has no option with value "${value}"`);
}
