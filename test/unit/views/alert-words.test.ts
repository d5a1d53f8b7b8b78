/**
 * Alert words read statuses the cloud sends: a status that names a property of every object
 * (`constructor`) is shown as a value, never looked up on Object's prototype.
 */
import { describe, expect, it } from 'vitest';
import { conditionWords } from '../../../src/views/alert-words.js';

const busy = (status: string) => conditionWords({ kind: 'server', resource: '101', condition: 'busy', detail: { status } }, 0);

describe('conditionWords, a busy server', () => {
  it('names a known status in words', () => {
    expect(busy('reinstalling').firing).toContain('reinstalling');
  });

  it.each(['constructor', 'toString', '__proto__'])('shows the status %s as the cloud sent it', (status) => {
    const w = busy(status);
    expect(w.firing).toContain(`\`${status}\``);
    expect(w.firing).not.toContain('native code');
    expect(w.firing).not.toContain('function');
  });
});
