/** A small collector of Block Kit violations, with the primitive checks the rules are made of. */
import { isObject } from './json.js';

export interface BlockKitViolation {
  /** JSON pointer into the checked payload, e.g. `/blocks/3/elements/0/text/text`. */
  path: string;
  message: string;
}

export class BlockKitChecker {
  readonly violations: BlockKitViolation[] = [];

  fail(path: string, message: string): void {
    this.violations.push({ path, message });
  }

  /** A string of at most `max` characters; `required`: present and non-empty. */
  string(path: string, value: unknown, max: number, { required = false, min = 1 } = {}): void {
    if (value === undefined || value === null) {
      if (required) this.fail(path, 'is required');
      return;
    }
    if (typeof value !== 'string') return this.fail(path, `must be a string, got ${typeof value}`);
    if (value.length < min) this.fail(path, `must be at least ${min} characters`);
    if (value.length > max) this.fail(path, `must be at most ${max} characters (has ${value.length})`);
  }

  /** action_id, block_id, callback_id, external_id: ≤ 255. */
  id(path: string, value: unknown, required = false): void {
    this.string(path, value, 255, { required });
  }

  array(path: string, value: unknown, { min = 0, max, required = false }: { min?: number; max: number; required?: boolean }): unknown[] {
    if (value === undefined || value === null) {
      if (required) this.fail(path, 'is required');
      return [];
    }
    if (!Array.isArray(value)) {
      this.fail(path, 'must be an array');
      return [];
    }
    if (value.length < min) this.fail(path, `must have at least ${min} item(s)`);
    if (value.length > max) this.fail(path, `must have at most ${max} items (has ${value.length})`);
    return value;
  }

  boolean(path: string, value: unknown): void {
    if (value !== undefined && typeof value !== 'boolean') this.fail(path, 'must be a boolean');
  }

  integer(path: string, value: unknown, min: number, max: number): void {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isInteger(value)) return this.fail(path, 'must be an integer');
    if (value < min || value > max) this.fail(path, `must be between ${min} and ${max} (is ${value})`);
  }

  oneOf(path: string, value: unknown, allowed: readonly string[]): void {
    if (value !== undefined && !allowed.includes(value as string)) {
      this.fail(path, `must be one of ${allowed.join(', ')} (is ${JSON.stringify(value)})`);
    }
  }

  /**
   * A text object: `{ type: 'plain_text' | 'mrkdwn', text }`, text non-empty and ≤ `max`.
   * `plainOnly` where Slack demands plain_text (labels, titles, button text, placeholders…).
   */
  text(path: string, value: unknown, max: number, { required = false, plainOnly = false } = {}): void {
    if (value === undefined || value === null) {
      if (required) this.fail(path, 'is required');
      return;
    }
    if (!isObject(value)) return this.fail(path, 'must be a text object { type, text }');
    if (value.type !== 'plain_text' && value.type !== 'mrkdwn') {
      return this.fail(`${path}/type`, `must be plain_text or mrkdwn (is ${JSON.stringify(value.type)})`);
    }
    if (plainOnly && value.type !== 'plain_text') this.fail(`${path}/type`, 'must be plain_text here');
    this.string(`${path}/text`, value.text, max, { required: true });
    if (value.type === 'plain_text' && 'verbatim' in value) this.fail(`${path}/verbatim`, 'is only for mrkdwn');
    if (value.type === 'mrkdwn' && 'emoji' in value) this.fail(`${path}/emoji`, 'is only for plain_text');
    this.boolean(`${path}/emoji`, value.emoji);
    this.boolean(`${path}/verbatim`, value.verbatim);
  }

  /** Records `id` under `scope`, failing on a repeat (block_ids per payload, action_ids per block). */
  unique(path: string, seen: Set<string>, id: unknown, what: string): void {
    if (typeof id !== 'string') return;
    if (seen.has(id)) this.fail(path, `duplicate ${what} "${id}"`);
    seen.add(id);
  }
}
