import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { manifestBotScopes } from '../rig/manifest-scopes.js';
import { ALICE, BOB, OPS_CHANNEL, PRIVATE_CHANNEL, RANDOM_CHANNEL } from '../rig/workspace.js';
import { slackError, webClient, type WebClient } from './web-client.js';

describe('fake Slack: channel messages', () => {
  let slack: FakeSlack;
  let client: WebClient;
  beforeEach(async () => {
    slack = await createFakeSlack();
    client = webClient(slack.url);
  });
  afterEach(() => slack.close());

  it('chat.postMessage answers ts, channel and the message, and records it', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: 'Server *42* is running' } }];
    const res = await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'Server 42 is running', blocks });
    expect(res.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(res.channel).toBe(OPS_CHANNEL.id);
    expect(res.message).toMatchObject({ type: 'message', text: 'Server 42 is running', bot_id: 'BCLOUDBOT1', ts: res.ts });
    // Slack gives blocks without a block_id one of its own
    expect(res.message?.blocks?.[0]?.block_id).toEqual(expect.any(String));
    const [stored] = slack.messages.inChannel(OPS_CHANNEL.id);
    expect(stored).toMatchObject({ channel: OPS_CHANNEL.id, ts: res.ts, text: 'Server 42 is running' });
  });

  it('gives every message a distinct, increasing ts', async () => {
    const a = await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'a' });
    const b = await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'b' });
    expect(Number(b.ts)).toBeGreaterThan(Number(a.ts));
  });

  it('answers not_in_channel where the bot is not a member, channel_not_found for unknown or hidden channels', async () => {
    await slackError(client.chat.postMessage({ channel: RANDOM_CHANNEL.id, text: 'x' }), 'not_in_channel');
    await slackError(client.chat.postMessage({ channel: PRIVATE_CHANNEL.id, text: 'x' }), 'channel_not_found');
    await slackError(client.chat.postMessage({ channel: 'CNOSUCH001', text: 'x' }), 'channel_not_found');
    slack.channels.get(RANDOM_CHANNEL.id)!.botIsMember = true; // someone ran /invite @cloudbot
    expect((await client.chat.postMessage({ channel: RANDOM_CHANNEL.id, text: 'x' })).ok).toBe(true);
    expect(slack.messages.all()).toHaveLength(1);
  });

  it('answers no_text when a message has neither text nor blocks', async () => {
    await slackError(client.chat.postMessage({ channel: OPS_CHANNEL.id } as never), 'no_text');
  });

  it('posting to a user id lands in the bot DM with that person', async () => {
    const res = await client.chat.postMessage({ channel: ALICE.id, text: 'psst' });
    expect(res.channel).toMatch(/^D/);
    expect(slack.messages.inChannel(res.channel!)).toHaveLength(1);
    const open = await webClient(slack.url).conversations.open({ users: ALICE.id }).catch((e: unknown) => e);
    expect((open as { data: { error: string } }).data.error).toBe('missing_scope'); // im:write is not in the manifest
  });

  it('chat.update edits the recorded message in place and keeps its history', async () => {
    const blocks = [{ type: 'section', block_id: 'status', text: { type: 'mrkdwn', text: 'awaiting confirmation' } }];
    const { ts } = await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'awaiting confirmation', blocks });
    const newBlocks = [{ type: 'section', block_id: 'status', text: { type: 'mrkdwn', text: 'running' } }];
    const res = await client.chat.update({ channel: OPS_CHANNEL.id, ts: ts!, text: 'running', blocks: newBlocks });
    expect(res).toMatchObject({ ok: true, channel: OPS_CHANNEL.id, ts, text: 'running' });
    await client.chat.update({ channel: OPS_CHANNEL.id, ts: ts!, text: 'done' }); // blocks left out: kept
    const message = slack.messages.get(OPS_CHANNEL.id, ts!)!;
    expect(message.text).toBe('done');
    expect(message.blocks).toEqual(newBlocks);
    expect(message.edited?.user).toBe('UCLOUDBOT1');
    expect(message.versions.map((v) => v.text)).toEqual(['awaiting confirmation', 'running']);
    expect(slack.messages.inChannel(OPS_CHANNEL.id)).toHaveLength(1);
  });

  it('chat.update of an unknown ts answers message_not_found; chat.delete removes a message', async () => {
    await slackError(client.chat.update({ channel: OPS_CHANNEL.id, ts: '1700000000.000001', text: 'x' }), 'message_not_found');
    const { ts } = await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'bye' });
    await client.chat.delete({ channel: OPS_CHANNEL.id, ts: ts! });
    expect(slack.messages.get(OPS_CHANNEL.id, ts!)).toBeUndefined();
    expect(slack.messages.deleted()).toHaveLength(1);
    await slackError(client.chat.update({ channel: OPS_CHANNEL.id, ts: ts!, text: 'x' }), 'message_not_found');
  });

  it('links thread replies to their parent', async () => {
    const parent = await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'Reinstalling server 42' });
    const r1 = await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'step 1', thread_ts: parent.ts! });
    // replying to a reply's ts threads under the parent, as Slack does
    await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'step 2', thread_ts: r1.ts! });
    expect(slack.messages.thread(OPS_CHANNEL.id, parent.ts!).map((m) => m.text)).toEqual(['step 1', 'step 2']);
    expect(slack.messages.inChannel(OPS_CHANNEL.id).map((m) => m.text)).toEqual(['Reinstalling server 42']);
    expect(slack.messages.get(OPS_CHANNEL.id, parent.ts!)).toMatchObject({ reply_count: 2, thread_ts: parent.ts });
  });

  it('records ephemeral messages per user; they are not channel messages', async () => {
    const res = await client.chat.postEphemeral({ channel: OPS_CHANNEL.id, user: ALICE.id, text: 'root password: hunter2' });
    expect(res.message_ts).toMatch(/^\d{10}\.\d{6}$/);
    await client.chat.postEphemeral({ channel: OPS_CHANNEL.id, user: BOB.id, text: 'for bob' });
    expect(slack.messages.ephemeral(ALICE.id).map((e) => e.text)).toEqual(['root password: hunter2']);
    expect(slack.messages.ephemeral()).toHaveLength(2);
    expect(slack.messages.all()).toEqual([]);
    await slackError(client.chat.postEphemeral({ channel: RANDOM_CHANNEL.id, user: ALICE.id, text: 'x' }), 'not_in_channel');
    await slackError(client.chat.postEphemeral({ channel: OPS_CHANNEL.id, user: 'UNOBODY001', text: 'x' }), 'user_not_in_channel');
  });

  it('chat.update / chat.delete on a message the bot did not post answer cant_update_message / cant_delete_message', async () => {
    // Slack lets an app edit and delete only its own messages (chat.update, chat.delete method references).
    const theirs = slack.messages.postFromAnotherApp(OPS_CHANNEL.id, 'from another app', { event_type: 'other', event_payload: {} });
    await slackError(client.chat.update({ channel: OPS_CHANNEL.id, ts: theirs.ts, text: 'mine now' }), 'cant_update_message');
    await slackError(client.chat.delete({ channel: OPS_CHANNEL.id, ts: theirs.ts }), 'cant_delete_message');
    expect(slack.messages.get(OPS_CHANNEL.id, theirs.ts)).toMatchObject({ text: 'from another app', versions: [] });
    await slackError(client.chat.update({ channel: OPS_CHANNEL.id, ts: '1700000000.000001', text: 'x' }), 'message_not_found');
  });

  it('chat.postEphemeral to a person of the workspace who is not in the channel answers user_not_in_channel', async () => {
    const narrow = await createFakeSlack({ channels: [{ ...OPS_CHANNEL, members: [ALICE.id] }] });
    try {
      const c = webClient(narrow.url);
      await c.chat.postEphemeral({ channel: OPS_CHANNEL.id, user: ALICE.id, text: 'for alice' });
      await slackError(c.chat.postEphemeral({ channel: OPS_CHANNEL.id, user: BOB.id, text: 'for bob' }), 'user_not_in_channel');
      expect(narrow.messages.ephemeral(BOB.id)).toEqual([]);
    } finally {
      await narrow.close();
    }
  });

  // What a maintenance summary's take-over reads to find a summary a stopped replica posted.
  describe('conversations.history', () => {
    const META = { event_type: 'cloudbot_maintenance_summary', event_payload: { window_id: 'mw_abcdefgh' } };
    const post = async (text: string, extra: Record<string, unknown> = {}) => (await client.chat.postMessage({ channel: OPS_CHANNEL.id, text, ...extra } as never)).ts!;

    it('lists top-level messages newest first, not thread replies; metadata only with include_all_metadata', async () => {
      const a = await post('a');
      await post('in a thread', { thread_ts: a });
      const b = await post('b', { metadata: META });
      const plain = await client.conversations.history({ channel: OPS_CHANNEL.id });
      expect(plain.messages!.map((m) => m.text)).toEqual(['b', 'a']);
      expect(plain.messages![0]).not.toHaveProperty('metadata');
      const withMeta = await client.conversations.history({ channel: OPS_CHANNEL.id, include_all_metadata: true });
      expect(withMeta.messages![0]).toMatchObject({ ts: b, metadata: META });
    });

    it('keeps oldest and latest exclusive unless inclusive; refuses a bound that is no ts', async () => {
      const [a, b, c] = [await post('a'), await post('b'), await post('c')];
      const texts = async (args: Record<string, unknown>) => (await client.conversations.history({ channel: OPS_CHANNEL.id, ...args })).messages!.map((m) => m.text);
      expect(await texts({ oldest: a })).toEqual(['c', 'b']);
      expect(await texts({ oldest: a, latest: c })).toEqual(['b']);
      expect(await texts({ oldest: a, latest: c, inclusive: true })).toEqual(['c', 'b', 'a']);
      expect(await texts({ oldest: b })).toEqual(['c']);
      await slackError(client.conversations.history({ channel: OPS_CHANNEL.id, oldest: 'yesterday' }), 'invalid_ts_oldest');
      await slackError(client.conversations.history({ channel: OPS_CHANNEL.id, latest: '-1' }), 'invalid_ts_latest');
    });

    it('pages by cursor (limit at most 999); a cursor it never gave is refused', async () => {
      for (let i = 0; i < 5; i++) await post(`m${i}`);
      const first = await client.conversations.history({ channel: OPS_CHANNEL.id, limit: 2 });
      expect(first.messages!.map((m) => m.text)).toEqual(['m4', 'm3']);
      expect(first.has_more).toBe(true);
      const second = await client.conversations.history({ channel: OPS_CHANNEL.id, limit: 2, cursor: first.response_metadata!.next_cursor! });
      expect(second.messages!.map((m) => m.text)).toEqual(['m2', 'm1']);
      const last = await client.conversations.history({ channel: OPS_CHANNEL.id, limit: 2, cursor: second.response_metadata!.next_cursor! });
      expect(last).toMatchObject({ has_more: false, response_metadata: { next_cursor: '' } });
      expect(last.messages!.map((m) => m.text)).toEqual(['m0']);
      expect((await client.conversations.history({ channel: OPS_CHANNEL.id, limit: 5000 })).messages).toHaveLength(5);
      await slackError(client.conversations.history({ channel: OPS_CHANNEL.id, cursor: 'bogus' }), 'invalid_cursor');
    });

    it('needs channel, the history scope of the channel type, and the bot in the channel', async () => {
      await slackError(client.apiCall('conversations.history', {}), 'channel_not_found');
      await slackError(client.conversations.history({ channel: RANDOM_CHANNEL.id }), 'not_in_channel');
      await slackError(client.conversations.history({ channel: PRIVATE_CHANNEL.id }), 'channel_not_found');
      const narrow = await createFakeSlack({ scopes: manifestBotScopes().filter((s) => s !== 'channels:history') });
      try {
        const data = await slackError(webClient(narrow.url).conversations.history({ channel: OPS_CHANNEL.id }), 'missing_scope');
        expect(data.needed).toBe('channels:history');
      } finally {
        await narrow.close();
      }
    });
  });
});
