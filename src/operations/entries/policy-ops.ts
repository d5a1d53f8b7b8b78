/**
 * `/cloud policy [user]`: the effective policy of this channel — its account, ceiling,
 * approvals and role grants, and where each rule comes from — and, for a person, what each
 * tier comes to here. Admins only; it acts on nothing, so it works in every channel (an admin
 * can always ask why something was refused).
 */
import { z } from 'zod';
import { buildPolicyView } from '../../views/policy-views.js';
import { defineOperation, positional } from '../define.js';

/**
 * A person: a user id, or a mention as Slack escapes it (`<@U0123|alice>`). The manifest keeps
 * should_escape off (URLs stay as typed), so a plain `@alice` arrives as a name the bot cannot
 * resolve: the message says to give the id.
 */
const person = z
  .string()
  .trim()
  .transform((v) => /^<@([UW][A-Z0-9]{2,})(?:\|[^>]*)?>$/.exec(v)?.[1] ?? v.replace(/^@(?=[UW][A-Z0-9]{2,}$)/, ''))
  .pipe(z.string().regex(/^[UW][A-Z0-9]{2,}$/, { error: 'must be a Slack user id like U0123ABCD (profile → ⋮ → Copy member ID)' }))
  .optional();

export const policyShow = defineOperation({
  id: 'policy.show',
  summary: 'The rules in force here: account, ceiling, approvals, roles, and where each comes from (admins)',
  tier: 'secret',
  secret: false,
  scope: 'everywhere',
  args: { user: positional('user', person, 'also show what this person may do here') },
  async run({ policy, actor }, { user }) {
    if (!policy) throw new Error('the policy is not available here');
    return policy.explain(actor?.channelId, user);
  },
  render: (explanation) => buildPolicyView(explanation),
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const POLICY_OPS = [policyShow];
