/**
 * Issue 14: a log line words a cloud failure by its kind — a 404 or an unreachable cloud is
 * not "refused by the cloud".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudApiError, cloudFailureLogWords } from '../../src/cloud/errors.js';
import { startBotRig, type BotRig } from './bot-rig.js';

let rig: BotRig;
beforeAll(async () => {
  rig = await startBotRig();
});
afterAll(async () => {
  await rig.close();
});

const lines = (from: number) => rig.logLines.slice(from).map((l) => String((JSON.parse(l) as { msg: unknown }).msg));

describe('log lines of a failed cloud call', () => {
  it('word each kind of failure', () => {
    const e = (status: number, code: string) => new CloudApiError({ status, code, message: 'x' });
    expect(cloudFailureLogWords(e(404, 'NOT_FOUND'))).toBe('not found at the cloud');
    expect(cloudFailureLogWords(e(0, 'NETWORK_ERROR'))).toBe('could not reach the cloud');
    expect(cloudFailureLogWords(e(0, 'TIMEOUT'))).toBe('could not reach the cloud');
    expect(cloudFailureLogWords(e(503, 'SERVICE_UNAVAILABLE'))).toBe('failed at the cloud');
    expect(cloudFailureLogWords(e(429, 'RATE_LIMITED'))).toBe('rate limited by the cloud');
    expect(cloudFailureLogWords(e(422, 'VALIDATION_ERROR'))).toBe('refused by the cloud');
  });

  it('a 404 is logged as not found, not as refused', async () => {
    const from = rig.logLines.length;
    await rig.command('server status 999');
    expect(lines(from)).toContain('operation not found at the cloud');
    expect(lines(from).join('\n')).not.toContain('refused by the cloud');
  });

  it('a dropped connection is logged as not reaching the cloud', async () => {
    rig.sandbox.addFault({ path: '/servers/101/status', destroySocket: true, times: 10 });
    const from = rig.logLines.length;
    await rig.command('server status 101');
    expect(lines(from)).toContain('operation could not reach the cloud');
    expect(lines(from).join('\n')).not.toContain('refused by the cloud');
  });
});
