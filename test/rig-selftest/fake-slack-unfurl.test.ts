/** The fake Slack's chat.unfurl answers like Slack (issue 23): scope, targets, URLs the message shared, Block Kit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { OPS_CHANNEL } from '../rig/workspace.js';
import { slackError, webClient } from './web-client.js';

const URL_A = 'https://panel.example.com/servers/101';
const card = { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'ok' } }] };

describe('fake Slack: chat.unfurl', () => {
  let slack: FakeSlack;
  beforeAll(async () => {
    slack = await createFakeSlack();
    slack.shareLinks(OPS_CHANNEL.id, '1700000000.000100', [URL_A]);
  });
  afterAll(() => slack.close());
  const client = () => webClient(slack.url);

  it('attaches a card to a link the message shared, through Bolt’s own WebClient (unfurls sent as JSON)', async () => {
    await client().chat.unfurl({ channel: OPS_CHANNEL.id, ts: '1700000000.000100', unfurls: { [URL_A]: card } as never });
    expect(slack.unfurls(OPS_CHANNEL.id, '1700000000.000100')).toEqual({ [URL_A]: card });
  });

  it('refuses a URL the message did not share, a message it does not know, a missing target and a missing unfurls', async () => {
    await slackError(client().chat.unfurl({ channel: OPS_CHANNEL.id, ts: '1700000000.000100', unfurls: { 'https://else.example.com/': card } as never }), 'cannot_unfurl_url');
    await slackError(client().chat.unfurl({ channel: OPS_CHANNEL.id, ts: '1700000000.000999', unfurls: { [URL_A]: card } as never }), 'cannot_find_message');
    await slackError(client().apiCall('chat.unfurl', { unfurls: JSON.stringify({ [URL_A]: card }) }), 'invalid_arguments');
    await slackError(client().apiCall('chat.unfurl', { channel: OPS_CHANNEL.id, ts: '1700000000.000100' }), 'invalid_arguments');
    await slackError(client().apiCall('chat.unfurl', { channel: OPS_CHANNEL.id, unfurls: JSON.stringify({ [URL_A]: card }) }), 'invalid_arguments');
  });

  it('checks the card against Block Kit limits', async () => {
    const long = { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } }] };
    await slackError(client().chat.unfurl({ channel: OPS_CHANNEL.id, ts: '1700000000.000100', unfurls: { [URL_A]: long } as never }), 'invalid_blocks');
    expect(slack.violations.length).toBeGreaterThan(0);
  });

  it('needs links:write', async () => {
    const narrow = await createFakeSlack({ scopes: ['chat:write'] });
    narrow.shareLinks(OPS_CHANNEL.id, '1700000000.000100', [URL_A]);
    const data = await slackError(webClient(narrow.url).chat.unfurl({ channel: OPS_CHANNEL.id, ts: '1700000000.000100', unfurls: { [URL_A]: card } as never }), 'missing_scope');
    expect(data.needed).toBe('links:write');
    await narrow.close();
  });
});
