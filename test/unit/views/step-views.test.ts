/**
 * A step's error goes to functions.completeError and is shown by Workflow Builder: every one is
 * built from our words with outside text as values, on one line, capped (src/views/step-views.ts).
 */
import { describe, expect, it } from 'vitest';
import { CloudApiError } from '../../../src/cloud/errors.js';
import { stepBackupGone, stepCloudFailed as failedWith } from '../../../src/views/step-views.js';

const stepCloudFailed = (code: string, message: string, status = 0, retryAfterMs?: number) =>
  failedWith(new CloudApiError({ status, code, message, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }));

describe('step errors', () => {
  it('a change that may have reached the cloud is not called refused; a refusal is', () => {
    for (const [code, status] of [['TIMEOUT', 0], ['NETWORK_ERROR', 0], ['HTTP_ERROR', 502]] as const) {
      const e = stepCloudFailed(code, 'x', status);
      expect(e, code).not.toMatch(/refused/i);
      expect(e, code).toContain('may or may not have reached the cloud');
    }
    expect(stepCloudFailed('SERVER_STATUS_CONFLICT', 'busy', 409)).not.toContain('may or may not');
    expect(stepCloudFailed('INTERNAL', 'boom')).not.toMatch(/cloud refused/i);
  });

  it('a rate-limited change tells the wait the cloud named, as its status message does', () => {
    expect(stepCloudFailed('RATE_LIMITED', 'slow down', 429, 120_000)).toContain('Try again in 120 s.');
  });

  it('a firewall change whose Retry sync got no answer is told as saved, its sync unknown', () => {
    const e = failedWith(new CloudApiError({ status: 0, code: 'NETWORK_ERROR', message: 'reset' }), true);
    expect(e).toContain('The firewall change is saved; whether this sync reached every node is unknown.');
    expect(e).not.toContain('may or may not have reached the cloud');
  });

  it('a backup the cloud no longer lists: its uuid from the cloud is a value, on one line', () => {
    const e = stepBackupGone('<!channel> *x*\nsecond line', '101');
    expect(e).toBe('Backup `&lt;!channel&gt; *x* second line` is no longer listed for server `101`; it did not finish.');
  });

  it('is capped however long the cloud’s text', () => {
    const e = stepBackupGone('u'.repeat(5000), '101');
    expect(e.length).toBeLessThanOrEqual(500);
    expect(stepCloudFailed('X', 'm'.repeat(5000)).length).toBeLessThanOrEqual(500);
  });
});
