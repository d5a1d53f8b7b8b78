/**
 * slack-api-direct.ts's channelHistory: every page since `oldest`, with metadata asked for; a
 * read the page cap stops is "Slack could not say" (a maintenance summary's take-over must not
 * take an unread page for "not there"), unlike a watch thread's, which keeps what it read.
 */
import { describe, expect, it } from 'vitest';
import { SlackApiError } from '../../src/chat/slack-api.js';
import { HISTORY_PAGE_CAP, slackApiDirect } from '../../src/slack/slack-api-direct.js';
import type { SlackHttp } from '../../src/slack/slack-http.js';

/** A Web API that answers `pages` pages of one message each, recording each call. */
function pagedHttp(pages: number) {
  const calls: { method: string; params: Record<string, unknown> }[] = [];
  const http: SlackHttp = {
    call: async (method, params) => {
      calls.push({ method, params });
      const n = params.cursor ? Number(String(params.cursor).slice('page:'.length)) : 0;
      const more = n + 1 < pages;
      const metadata = n === 0 ? { metadata: { event_type: 'cloudbot_maintenance_summary', event_payload: { window_id: 'mw_abcdefgh' } } } : {};
      return { ok: true, messages: [{ ts: `1795000000.${String(n).padStart(6, '0')}`, ...metadata }], has_more: more, response_metadata: { next_cursor: more ? `page:${n + 1}` : '' } };
    },
  };
  return { http, calls };
}

describe('channelHistory', () => {
  it('reads every page since oldest with metadata, and gives each message its ts and metadata', async () => {
    const { http, calls } = pagedHttp(3);
    const messages = await slackApiDirect(http).channelHistory!({ channel: 'C1', oldest: '1794999000.000000' });
    expect(messages.map((m) => m.ts)).toEqual(['1795000000.000000', '1795000000.000001', '1795000000.000002']);
    expect(messages[0]!.metadata).toEqual({ event_type: 'cloudbot_maintenance_summary', event_payload: { window_id: 'mw_abcdefgh' } });
    expect(calls.map((c) => c.method)).toEqual(Array(3).fill('conversations.history'));
    expect(calls[0]!.params).toEqual({ channel: 'C1', oldest: '1794999000.000000', include_all_metadata: true, limit: 200 });
    expect(calls[2]!.params.cursor).toBe('page:2');
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
