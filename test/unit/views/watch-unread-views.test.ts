/**
 * Why a watch could not read its state (src/views/watch-views.ts unreadWhy): the cloud's error in
 * cloud-error-text.ts's words. A failure that passes by itself says what happened without a
 * person's next step (the watch polls on its own; nothing was to be changed); a refusal someone
 * must fix keeps its next step.
 */
import { describe, expect, it } from 'vitest';
import { unreadWhy } from '../../../src/views/watch-views.js';

const since = Date.UTC(2026, 10, 29, 10, 0);

describe('unreadWhy', () => {
  it('a timeout, a 503 or a rate limit: what happened, no "try again" nor "nothing was changed"', () => {
    for (const u of [
      { since, status: 0, code: 'TIMEOUT', message: '' },
      { since, status: 503, code: 'SERVICE_UNAVAILABLE', message: 'down' },
      { since, status: 429, code: 'RATE_LIMITED', message: '' },
    ]) {
      const said = unreadWhy(u);
      expect(said, u.code).not.toMatch(/try again|nothing was changed/i);
      expect(said.length, u.code).toBeGreaterThan(10);
    }
    expect(unreadWhy({ since, status: 0, code: 'TIMEOUT', message: '' })).toBe('The cloud did not answer in time.');
  });

  it('a refused token keeps the step someone must take', () => {
    const said = unreadWhy({ since, status: 401, code: 'UNAUTHENTICATED', message: 'bad token' });
    expect(said).toMatch(/token/i);
    expect(said).toContain('CLOUD_API_TOKEN');
  });
});
