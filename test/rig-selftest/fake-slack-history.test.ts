/**
 * The fake's conversations.history against Bolt's own WebClient: what a maintenance summary's
 * take-over reads to find a summary a stopped replica posted (src/monitor/maintenance.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { manifestBotScopes } from '../rig/manifest-scopes.js';
import { OPS_CHANNEL, PRIVATE_CHANNEL, RANDOM_CHANNEL } from '../rig/workspace.js';
import { slackError, webClient, type WebClient } from './web-client.js';

const META = { event_type: 'cloudbot_maintenance_summary', event_payload: { window_id: 'mw_abcdefgh' } };

describe('fake Slack: conversations.history', () => {
  let slack: FakeSlack;
  let client: WebClient;
  beforeEach(async () => {
    slack = await createFakeSlack();
    client = webClient(slack.url);
  });
  afterEach(() => slack.close());

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
