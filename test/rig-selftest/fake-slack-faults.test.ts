import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { ADMINS_GROUP, ALICE, BOB, OPS_CHANNEL } from '../rig/workspace.js';
import { slackError, webClient } from './web-client.js';

describe('fake Slack: injected failures, rate limits, Block Kit, user groups', () => {
  let slack: FakeSlack;
  beforeEach(async () => {
    slack = await createFakeSlack();
  });
  afterEach(() => slack.close());

  it('failNext makes the next N calls of one method fail, then recovers', async () => {
    const client = webClient(slack.url);
    slack.failNext('chat.postMessage', 'channel_not_found', 2);
    await client.auth.test(); // other methods are unaffected
    await slackError(client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'a' }), 'channel_not_found');
    await slackError(client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'b' }), 'channel_not_found');
    expect((await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'c' })).ok).toBe(true);
    expect(slack.messages.all().map((m) => m.text)).toEqual(['c']);
  });

  it('rateLimitNext answers 429 with Retry-After; WebClient waits and retries', async () => {
    const client = webClient(slack.url);
    const rateLimited: number[] = [];
    client.on(webApi.WebClientEvent.RATE_LIMITED, (sec: number) => rateLimited.push(sec));
    slack.rateLimitNext('chat.postMessage', 0);
    const res = await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'hello' });
    expect(res.ok).toBe(true);
    expect(rateLimited).toEqual([0]);
    expect(slack.callsTo('chat.postMessage').map((c) => c.status)).toEqual([429, 200]);
    expect(slack.messages.all()).toHaveLength(1);
  });

  it('a client that rejects rate-limited calls sees the Retry-After value', async () => {
    const client = webClient(slack.url, undefined, { rejectRateLimitedCalls: true });
    slack.rateLimitNext('chat.update', 30);
    const err = await client.chat.update({ channel: OPS_CHANNEL.id, ts: '1.000001', text: 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: webApi.ErrorCode.RateLimitedError, retryAfter: 30 });
  });

  it('httpErrorNext answers HTTP 500 to the next N calls; WebClient retries them as a server fault', async () => {
    const client = webClient(slack.url, undefined, { retryConfig: { retries: 2, minTimeout: 0, maxTimeout: 1 } });
    slack.httpErrorNext('chat.update', 500, 3);
    const err = await client.chat.update({ channel: OPS_CHANNEL.id, ts: '1.000001', text: 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: webApi.ErrorCode.HTTPError, statusCode: 500 });
    expect(slack.callsTo('chat.update').map((c) => c.status)).toEqual([500, 500, 500]);
    const posted = await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'after' });
    expect(posted.ok).toBe(true); // other methods and later calls are unaffected
  });

  it('hangNext never answers until releaseHung, which then handles the call as usual', async () => {
    const client = webClient(slack.url, undefined, { timeout: 100, retryConfig: { retries: 0 } });
    slack.hangNext('chat.postMessage');
    const err = await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'lost' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: webApi.ErrorCode.RequestError });
    expect(slack.callsTo('chat.postMessage').map((c) => c.status)).toEqual([0]);
    expect(slack.messages.all()).toEqual([]);
    slack.releaseHung();
    expect(slack.callsTo('chat.postMessage').map((c) => c.status)).toEqual([200]);
    expect(slack.messages.all().map((m) => m.text)).toEqual(['lost']); // Slack acted; the client never knew
  });

  it('rejects blocks breaking Block Kit limits with invalid_blocks and records each violation', async () => {
    const client = webClient(slack.url);
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } },
      { type: 'actions', elements: [{ type: 'button', action_id: 'go', text: { type: 'plain_text', text: 'Go' }, value: 'v'.repeat(2001) }] },
    ];
    const data = await slackError(client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'x', blocks }), 'invalid_blocks');
    expect(data.response_metadata).toMatchObject({ messages: expect.arrayContaining([expect.stringContaining('/blocks/0/text/text')]) });
    expect(slack.violations.map((v) => [v.method, v.path])).toEqual([
      ['chat.postMessage', '/blocks/0/text/text'],
      ['chat.postMessage', '/blocks/1/elements/0/value'],
    ]);
    await slackError(client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'y'.repeat(4000) }), 'msg_too_long');
    await slackError(client.apiCall('chat.postMessage', { channel: OPS_CHANNEL.id, blocks: 'not json' }), 'invalid_blocks_format');
    expect(slack.messages.all()).toEqual([]);
  });

  it('lists user group members, follows setMembers, and answers no_such_subteam', async () => {
    const client = webClient(slack.url);
    expect((await client.usergroups.users.list({ usergroup: ADMINS_GROUP.id })).users).toEqual([ALICE.id]);
    slack.setMembers(ADMINS_GROUP.id, [ALICE.id, BOB.id]);
    slack.setMembers('SOPERATOR1', [BOB.id]);
    expect((await client.usergroups.users.list({ usergroup: ADMINS_GROUP.id })).users).toEqual([ALICE.id, BOB.id]);
    expect((await client.usergroups.users.list({ usergroup: 'SOPERATOR1' })).users).toEqual([BOB.id]);
    expect(slack.usergroups.get('SOPERATOR1')).toEqual([BOB.id]);
    await slackError(client.usergroups.users.list({ usergroup: 'SNOSUCH001' }), 'no_such_subteam');
  });

  it('auth.test identifies the bot user (Bolt calls it to learn its own id)', async () => {
    const res = await webClient(slack.url).auth.test();
    expect(res).toMatchObject({ ok: true, user_id: 'UCLOUDBOT1', bot_id: 'BCLOUDBOT1', team_id: 'TCLOUDTEAM' });
  });

  it('users.info answers people when users:read is granted', async () => {
    const withUsers = await createFakeSlack({ scopes: ['commands', 'chat:write', 'usergroups:read', 'users:read'] });
    try {
      const res = await webClient(withUsers.url).users.info({ user: ALICE.id });
      expect(res.user).toMatchObject({ id: ALICE.id, name: 'alice', is_admin: true });
      await slackError(webClient(withUsers.url).users.info({ user: 'UNOBODY001' }), 'user_not_found');
    } finally {
      await withUsers.close();
    }
  });
});
