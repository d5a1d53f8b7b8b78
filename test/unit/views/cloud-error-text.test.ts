import { describe, expect, it } from 'vitest';
import {
  CHOSEN_ERROR_CODES,
  CloudApiError,
  LOCAL_ERROR_CODES,
  PROVIDER_ERROR_CODES,
  SPEC_ERROR_CODES,
} from '../../../src/cloud/errors.js';
import { DESCRIBED_CODES, describeCloudError } from '../../../src/views/cloud-error-text.js';

const err = (code: string, extra: Partial<ConstructorParameters<typeof CloudApiError>[0]> = {}) =>
  new CloudApiError({ status: 422, code, message: `msg for ${code}`, ...extra });

describe('describeCloudError', () => {
  it('has its own words for every spec, provider, chosen and local code', () => {
    for (const code of [...SPEC_ERROR_CODES, ...PROVIDER_ERROR_CODES, ...CHOSEN_ERROR_CODES, ...LOCAL_ERROR_CODES]) {
      expect(DESCRIBED_CODES, code).toContain(code);
      const t = describeCloudError(err(code));
      expect(t.summary.length, code).toBeGreaterThan(10);
      expect(t.nextStep.length, code).toBeGreaterThan(10);
      expect(t.summary, code).not.toContain('(code');
    }
  });

  it('renders an unknown code with the cloud’s message and the code', () => {
    const t = describeCloudError(err('SOMETHING_NEW', { message: 'The moon is full' }));
    expect(t.summary).toBe('The cloud refused: `The moon is full` (code `SOMETHING_NEW`).');
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('a code that names a property of every object (%s) is an unknown code, not a crash', (code) => {
    const t = describeCloudError(err(code, { message: 'odd' }));
    expect(t.summary).toBe(`The cloud refused: \`odd\` (code \`${code}\`).`);
  });

  it('uses the numbers the API gives', () => {
    const limit = describeCloudError(err('RESERVED_IP_LIMIT_REACHED', { details: { count: 4, limit: 10, used: 9, available: 1 } }));
    expect(limit.summary).toContain('the account holds 4 reserved IPs');
    expect(limit.summary).toContain('9 of 10 addresses');
    expect(limit.summary).toContain('1 more can be reserved');
    const money = describeCloudError(err('INSUFFICIENT_BALANCE', { details: { balance: 0.5, required: 2 } }));
    expect(money.summary).toContain('balance 0.5, needed 2');
    const workers = describeCloudError(err('WORKER_LIMIT_REACHED', { details: { workers_used: 3, workers_allowed: 3 } }));
    expect(workers.summary).toContain('(3 of 3)');
  });

  it('shows the cloud’s words and string details only as inert values', () => {
    const hostile = describeCloudError(err('SOMETHING_NEW', { message: '<!channel> line\n:white_check_mark: *Approved*', code: '<@U123>' }));
    expect(hostile.summary).toBe('The cloud refused: `&lt;!channel&gt; line :white_check_mark: *Approved*` (code `&lt;@U123&gt;`).');
    const limit = describeCloudError(err('RESERVED_IP_LIMIT_REACHED', { details: { count: '<!here>', limit: 10, used: 9 } }));
    expect(limit.summary).toContain('the account holds `&lt;!here&gt;` reserved IPs');
    expect(limit.summary).not.toContain('<!here>');
  });

  it('warns that a failed change may have happened, but not a failed read', () => {
    const write = describeCloudError(err('TIMEOUT', { status: 0 }), { mutation: true });
    expect(write.nextStep).toMatch(/may or may not have reached the cloud/);
    const read = describeCloudError(err('NETWORK_ERROR', { status: 0 }));
    expect(read.nextStep).toMatch(/Nothing was changed/);
  });

  it('carries VALIDATION_ERROR fields', () => {
    const t = describeCloudError(err('VALIDATION_ERROR', { details: { name: ['too long'], quantity: 'must be 1 or more' } }));
    expect(t.fields).toEqual({ name: ['too long'], quantity: ['must be 1 or more'] });
  });

  it('says when to retry after rate limiting', () => {
    expect(describeCloudError(err('RATE_LIMITED', { status: 429, retryAfterMs: 2500 })).nextStep).toBe('Try again in 3 s.');
  });
});

describe('describeCloudError for codes it does not know', () => {
  it('treats a 5xx as the cloud having trouble', () => {
    const t = describeCloudError(new CloudApiError({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'down for maintenance' }));
    expect(t.summary).toBe('The cloud is having trouble right now (HTTP 503: `down for maintenance`).');
    expect(t.nextStep).toMatch(/Nothing was changed/);
  });
});
