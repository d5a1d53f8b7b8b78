/**
 * `undo_delay` in the policy file (issue 25 item 4): for the whole bot or one channel, a
 * duration like 30s or 2m, checked before it is used; the channel's own wins, and only
 * destroy-tier cloud changes wait.
 */
import { describe, expect, it } from 'vitest';
import { parsePolicyText, PolicyFileError } from '../../../src/access/policy-file.js';
import { buildPolicy } from '../../../src/access/policy.js';
import { createAccess } from '../../../src/access/access.js';
import { describePolicyChanges, describeWidenings } from '../../../src/access/policy-diff.js';
import { createManualClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/log.js';

const options = { hasEnv: (name: string) => name === 'CLOUD_PROD_TOKEN' };
const file = (extra: string) => `
version: 1
accounts:
  prod: { base_url: https://api.example.com/v2, token_env: CLOUD_PROD_TOKEN }
${extra}
default_channel: { account: prod, ceiling: [read, change, destroy], approval: [] }
channels:
  C0PROD001: { account: prod, ceiling: [read, change, destroy], approval: [], undo_delay: 2m }
  C0QUICK01: { account: prod, ceiling: [read, change, destroy], approval: [], undo_delay: 0 }
  C0PLAIN01: { account: prod, ceiling: [read, change, destroy], approval: [] }
`;
const ENV = { admins: [], operators: [], viewers: undefined, channels: undefined, policyFile: undefined, approval: undefined };
const policyOf = (text: string) => buildPolicy({ access: ENV, cloud: undefined, file: parsePolicyText(text, 'policy.yaml', options), path: 'policy.yaml' });

function problems(text: string): string {
  try {
    parsePolicyText(text, 'policy.yaml', options);
  } catch (e) {
    expect(e).toBeInstanceOf(PolicyFileError);
    return (e as Error).message;
  }
  throw new Error('expected a PolicyFileError');
}

describe('undo_delay', () => {
  it('reads 30s, 2m, 1m30s and 0; a channel’s own wins over the whole bot’s', () => {
    const policy = policyOf(file('undo_delay: 30s'));
    expect(policy.channels.C0PROD001!.undoDelayMs).toBe(120_000);
    expect(policy.channels.C0QUICK01!.undoDelayMs).toBe(0);
    expect(policy.channels.C0PLAIN01!.undoDelayMs).toBe(30_000);
    expect(policy.defaultChannel !== 'deny' && policy.defaultChannel.undoDelayMs).toBe(30_000);
    expect(policyOf(file('undo_delay: 1m30s')).channels.C0PLAIN01!.undoDelayMs).toBe(90_000);
    expect(policyOf(file('')).channels.C0PLAIN01!.undoDelayMs).toBe(0);
  });

  it('refuses what is not a duration, too short or too long, naming each place', () => {
    const message = problems(file('undo_delay: soon').replace('undo_delay: 2m', 'undo_delay: 3s').replace('undo_delay: 0', 'undo_delay: 11m'));
    expect(message).toContain('undo_delay must be a duration like 30s or 2m: 0 (no delay) or 5s to 10m');
    expect(message).toContain('channels.C0PROD001.undo_delay must be a duration');
    expect(message).toContain('channels.C0QUICK01.undo_delay must be a duration');
    expect(problems(file('undo_delay: -5s'))).toContain('undo_delay must be a duration');
    expect(problems(file('undo_delay: 30'))).toContain('undo_delay must be a duration');
  });

  it('makes only destroy-tier cloud changes wait, in the channel the rule names', () => {
    const policy = policyOf(file('undo_delay: 30s'));
    const access = createAccess({ policy: () => policy, groupMembers: async () => [], clock: createManualClock(), logger: createLogger({ sink: () => {} }) });
    expect(access.undoDelayFor({ tier: 'destroy' }, 'C0PROD001')).toBe(120_000);
    expect(access.undoDelayFor({ tier: 'destroy' }, 'C0OTHER01')).toBe(30_000);
    expect(access.undoDelayFor({ tier: 'change' }, 'C0PROD001')).toBe(0);
    expect(access.undoDelayFor({ tier: 'destroy', scope: 'bot' as const }, 'C0PROD001')).toBe(0);
  });

  it('a reload that shortens a delay is named as a widening', () => {
    const before = policyOf(file('undo_delay: 30s'));
    const after = policyOf(file('undo_delay: 10s'));
    expect(describePolicyChanges(before, after)).toContain('channels.C0PLAIN01.undo_delay: 30s → 10s');
    expect(describeWidenings(before, after).some((w) => w.startsWith('channels.C0PLAIN01.undo_delay: 30s → 10s'))).toBe(true);
    expect(describeWidenings(after, before).some((w) => w.includes('undo_delay'))).toBe(false);
  });
});
