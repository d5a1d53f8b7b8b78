/**
 * slack-api-direct.ts's channelHistory: every page since `oldest`, with metadata asked for; a
 * read the page cap stops is "Slack could not say" (a maintenance summary's take-over must not
 * take an unread page for "not there"), unlike a watch thread's, which keeps what it read.
 * Metadata counts only on the bot's own messages (its bot id from auth.test, asked once).
 */
import { describe, expect, it } from 'vitest';
import { SlackApiError } from '../../src/chat/slack-api.js';
import { HISTORY_PAGE_CAP, slackApiDirect } from '../../src/slack/slack-api-direct.js';
import type { SlackHttp } from '../../src/slack/slack-http.js';

const BOT_ID = 'B0CLOUDBOT';
const META = { event_type: 'cloudbot_maintenance_summary', event_payload: { window_id: 'mw_abcdefgh' } };

/**
 * A Web API that answers `pages` pages of one message each, the first carrying metadata (posted
 * by `firstFrom`), and auth.test with the bot's id; history calls are recorded in `calls`.
 */
function pagedHttp(pages: number, firstFrom = BOT_ID) {
  const calls: { method: string; params: Record<string, unknown> }[] = [];
  const authTests: number[] = [];
  const http: SlackHttp = {
    call: async (method, params) => {
      if (method === 'auth.test') {
        authTests.push(1);
        return { ok: true, user_id: 'U0CLOUDBOT', bot_id: BOT_ID };
      }
      calls.push({ method, params });
      const n = params.cursor ? Number(String(params.cursor).slice('page:'.length)) : 0;
      const more = n + 1 < pages;
      const message = n === 0 ? { bot_id: firstFrom, metadata: META } : { bot_id: BOT_ID };
      return { ok: true, messages: [{ ts: `1795000000.${String(n).padStart(6, '0')}`, ...message }], has_more: more, response_metadata: { next_cursor: more ? `page:${n + 1}` : '' } };
    },
  };
  return { http, calls, authTests };
}

describe('channelHistory', () => {
  it('reads every page since oldest with metadata, and gives each message its ts and metadata', async () => {
    const { http, calls } = pagedHttp(3);
    const messages = await slackApiDirect(http).channelHistory!({ channel: 'C1', oldest: '1794999000.000000' });
    expect(messages.map((m) => m.ts)).toEqual(['1795000000.000000', '1795000000.000001', '1795000000.000002']);
    expect(messages[0]!.metadata).toEqual(META);
    expect(calls.map((c) => c.method)).toEqual(Array(3).fill('conversations.history'));
    expect(calls[0]!.params).toEqual({ channel: 'C1', oldest: '1794999000.000000', include_all_metadata: true, limit: 200 });
    expect(calls[2]!.params.cursor).toBe('page:2');
  });

  it('metadata another app posted is left off: its message is listed, not taken for the bot’s; auth.test is asked once', async () => {
    const { http, authTests } = pagedHttp(1, 'B0OTHERAPP');
    const api = slackApiDirect(http);
    const messages = await api.channelHistory!({ channel: 'C1', oldest: '0.000000' });
    expect(messages).toEqual([{ ts: '1795000000.000000' }]);
    await api.channelHistory!({ channel: 'C1', oldest: '0.000000' });
    expect(authTests).toHaveLength(1);
  });

  it('Slack cannot say who the bot is: the read fails as Slack not answering, and is asked again next time', async () => {
    let down = true;
    const { http } = pagedHttp(1);
    const flaky: SlackHttp = {
      call: async (method, params, kind) => {
        if (method === 'auth.test' && down) throw new SlackApiError('http_503', 'auth.test', 'unavailable');
        return http.call(method, params, kind);
      },
    };
    const api = slackApiDirect(flaky);
    await expect(api.channelHistory!({ channel: 'C1', oldest: '0.000000' })).rejects.toMatchObject({ code: 'http_503', failure: 'unavailable' });
    down = false;
    expect((await api.channelHistory!({ channel: 'C1', oldest: '0.000000' }))[0]!.metadata).toEqual(META);
  });

  it('stopped by its page cap: throws, as Slack not answering would', async () => {
    const { http, calls } = pagedHttp(HISTORY_PAGE_CAP + 1);
    const error = await slackApiDirect(http).channelHistory!({ channel: 'C1', oldest: '0.000000' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlackApiError);
    expect(error).toMatchObject({ code: 'too_many_pages', failure: 'unavailable' });
    expect(calls).toHaveLength(HISTORY_PAGE_CAP);
    // A whole cap's worth is a full read: no throw.
    expect(await slackApiDirect(pagedHttp(HISTORY_PAGE_CAP).http).channelHistory!({ channel: 'C1', oldest: '0.000000' })).toHaveLength(HISTORY_PAGE_CAP);
  });
});
