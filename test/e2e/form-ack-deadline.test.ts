/**
 * A change form's submission is acked inside Slack's 3 s whatever the bot is waiting on
 * (slack-facts.md: every request within 3 seconds). Submitting admits the form again, and that
 * may read a user group from Slack: with the read hanging, the ack still comes (at the 2 s
 * submit deadline, counted from delivery), the form closes, and what the form would have shown
 * is told once the read answers — the status message when the right holds, a private refusal
 * when it does not. Nothing is sent to the cloud before Confirm either way.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { viewSubmissionPayload } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ADMINS_GROUP, OPS_CHANNEL, type FakeUser } from '../rig/workspace.js';
import { rigHelpers, startBotRig, type BotRig } from './bot-rig.js';

/** An admin of the ops channel only as a member of the admins user group. */
const ERIN: FakeUser = { id: 'UERIN00005', name: 'erin', realName: 'Erin Group-Admin' };
const GROUPS = 'usergroups.users.list';

let rig: BotRig;
const { text, ephemeralTo } = rigHelpers(() => rig);

beforeAll(async () => {
  rig = await startBotRig({
    extraUsers: [ERIN],
    // Read at every check; a hung read stays pending until the case releases it.
    groupCacheMs: 0,
    slackCallTimeoutMs: 30_000,
    policy: { version: 1, channels: { [OPS_CHANNEL.id]: { admins: [ADMINS_GROUP.id], operators: [], viewers: [] } } },
  });
  rig.slack.setMembers(ADMINS_GROUP.id, [ERIN.id]);
});
afterEach(() => {
  rig.slack.releaseHung();
  rig.slack.clearFaults();
  rig.slack.setMembers(ADMINS_GROUP.id, [ERIN.id]);
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

async function openReserveForm() {
  const n = rig.slack.views.all().length;
  await rig.sendCommand('ip reserve', { userId: ERIN.id });
  return waitFor(() => {
    const v = rig.slack.views.all()[n];
    return v && v.view.callback_id === 'cloud_change' && JSON.stringify(v.view.blocks).includes('"block_id":"subnet"') ? v : undefined;
  }, { timeoutMs: 5000 });
}

/** Submits the form while Slack leaves the group read unanswered; resolves with the ack. */
async function submitWhileGroupReadHangs(form: Awaited<ReturnType<typeof openReserveForm>>) {
  rig.slack.hangNext(GROUPS, 10);
  const reads = rig.slack.callsTo(GROUPS).length;
  const res = await rig.send.interaction(
    viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { location: '1', subnet: 'sub-ams-1', quantity: '1' }, userId: ERIN.id }),
  );
  // Acked while the read it waits on is still unanswered.
  expect(rig.slack.callsTo(GROUPS).length).toBeGreaterThan(reads);
  expect(rig.slack.callsTo(GROUPS).slice(reads).every((c) => c.response.ok === undefined || c.response.error === 'no_answer')).toBe(true);
  return res;
}

describe('a change form submitted while a user group read hangs', () => {
  it('is acked and closed; once the read answers, the status message is posted as usual', { timeout: 20_000 }, async () => {
    const form = await openReserveForm();
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    const res = await submitWhileGroupReadHangs(form);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(rig.slack.views.isOpen(form.id)).toBe(false);
    expect(rig.slack.messages.inChannel(OPS_CHANNEL.id).filter((m) => m.postedAt >= before)).toEqual([]);

    rig.slack.releaseHung();
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    expect(text(msg)).toContain('Reserve 1 IPv4 address from `sub-ams-1`');
    expect(text(msg)).toContain('awaiting confirmation');
    expect(rig.mutations(from)).toEqual([]);
  });

  it('is acked and closed; a refusal the form would have shown is told privately instead', { timeout: 20_000 }, async () => {
    const form = await openReserveForm();
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    const res = await submitWhileGroupReadHangs(form);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');

    // Erin left the group meanwhile: the read answers, and says so.
    rig.slack.setMembers(ADMINS_GROUP.id, []);
    rig.slack.releaseHung();
    await waitFor(() => ephemeralTo(ERIN.id).find((t) => t.includes('admin')), { timeoutMs: 10_000, message: 'the refusal, privately' });
    expect(rig.slack.messages.inChannel(OPS_CHANNEL.id).filter((m) => m.postedAt >= before)).toEqual([]);
    expect(rig.mutations(from)).toEqual([]);
  });
});
