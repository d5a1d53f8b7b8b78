/**
 * A user group Slack does not answer for grants nothing (safe by default), but the finding says
 * so: a role refusal it causes names the unread groups that could have given the role, and is
 * told as "could not tell", not as the rules' verdict. Groups that could not change the answer
 * leave no doubt.
 */
import { describe, expect, it } from 'vitest';
import { createAccess } from '../../../src/access/access.js';
import { buildPolicy } from '../../../src/access/policy.js';
import { createManualClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/log.js';
import { refusalText } from '../../../src/views/access-views.js';
import { SlackApiError } from '../../../src/chat/slack-api.js';

const ADMINS = 'SADMINS01';
const OPERATORS = 'SOPERS001';
const ENV = { admins: [ADMINS], operators: ['UOPER0001', OPERATORS], viewers: undefined, channels: undefined, policyFile: undefined, approval: undefined };

const POLICY = buildPolicy({ access: ENV, cloud: { baseUrl: 'https://api.example.com/v2', token: 't' } });

function accessWith(down: readonly string[], gone: readonly string[] = []) {
  const reads: string[] = [];
  const access = createAccess({
    policy: () => POLICY,
    groupMembers: async (id) => {
      reads.push(id);
      if (down.includes(id)) throw new SlackApiError('http_503', 'usergroups.users.list', 'unavailable');
      if (gone.includes(id)) throw new SlackApiError('no_such_subteam', 'usergroups.users.list');
      return id === ADMINS ? ['UADMIN001'] : [];
    },
    clock: createManualClock(),
    logger: createLogger({ level: 'error' }),
  });
  return { access, reads };
}

describe('a user group that cannot be read', () => {
  it('grants nothing, and the finding names it with the role it is on', async () => {
    const { access } = accessWith([ADMINS]);
    expect(await access.findRole('UADMIN001')).toEqual({ role: 'viewer', source: 'default (CLOUD_VIEWERS unset)', unread: [{ group: ADMINS, role: 'admin' }] });
    const d = await access.check('UADMIN001', undefined, { tier: 'destroy' });
    expect(d).toMatchObject({ ok: false, reason: 'role', role: 'viewer', needed: 'admin', unread: [ADMINS] });
    // What it allows anyway is allowed.
    expect((await access.check('UADMIN001', undefined, { tier: 'read' })).ok).toBe(true);
  });

  it('leaves no doubt when it could not give the tier asked for, or more than was found', async () => {
    const { access } = accessWith([OPERATORS]);
    // An operator's group: a destroy needs an admin whatever it says.
    const d = await access.check('UADMIN002', undefined, { tier: 'destroy' });
    expect(d.ok === false && d.reason === 'role' && 'unread' in d).toBe(false);
    // Listed as an operator directly: the operators' group could give no more.
    expect(await access.findRole('UOPER0001')).toEqual({ role: 'operator', source: 'CLOUD_OPERATORS' });
  });

  it('is read again at the next check (a failed read is not cached)', async () => {
    const { access, reads } = accessWith([ADMINS]);
    await access.findRole('UADMIN001');
    await access.findRole('UADMIN001');
    expect(reads.filter((id) => id === ADMINS)).toHaveLength(2);
  });

  it('is told as unknown, not as a missing role', async () => {
    const { access } = accessWith([ADMINS]);
    const d = await access.check('UADMIN001', undefined, { tier: 'destroy' });
    if (d.ok) throw new Error('expected a refusal');
    const said = refusalText(d, '/cloud server delete', 'destroy');
    expect(said).toContain('it needs the *admin* role. Slack did not let the bot read user group `SADMINS01`, which may give it to you, so it cannot tell whether you have it.');
    expect(said).not.toContain('Your role here is');
  });
});

describe('a user group Slack says does not exist (deleted, or a typo in the policy)', () => {
  it('grants nothing and leaves no doubt: the refusal is the rules’ verdict; the answer is cached', async () => {
    const { access, reads } = accessWith([], [ADMINS]);
    expect(await access.findRole('UADMIN001')).toEqual({ role: 'viewer', source: 'default (CLOUD_VIEWERS unset)' });
    const d = await access.check('UADMIN001', undefined, { tier: 'destroy' });
    expect(d).toMatchObject({ ok: false, reason: 'role', role: 'viewer', needed: 'admin' });
    expect(d.ok === false && 'unread' in d).toBe(false);
    // Read once for the finding and the check: a definite answer is cached.
    expect(reads.filter((id) => id === ADMINS)).toHaveLength(1);
  });

  it('another refusal (a missing scope) is still "could not tell": the group may exist', async () => {
    const reads: string[] = [];
    const access = createAccess({
      policy: () => POLICY,
      groupMembers: async (id) => {
        reads.push(id);
        throw new SlackApiError('missing_scope', 'usergroups.users.list');
      },
      clock: createManualClock(),
      logger: createLogger({ level: 'error' }),
    });
    expect((await access.findRole('UADMIN001')).unread).toEqual([
      { group: ADMINS, role: 'admin' },
      { group: OPERATORS, role: 'operator' },
    ]);
    await access.findRole('UADMIN001');
    expect(reads.filter((id) => id === ADMINS)).toHaveLength(2);
  });
});
