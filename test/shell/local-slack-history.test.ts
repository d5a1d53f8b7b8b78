/**
 * The shell's local Slack answers conversations.history as Slack does for what the bot asks
 * (a maintenance summary's take-over): top-level messages after `oldest`, newest first,
 * metadata only with include_all_metadata.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack } from '../../src/shell/local-slack.js';

let slack: LocalSlack;
beforeEach(async () => {
  slack = await startLocalSlack({ token: 'xoxb-local', home: 'D0SHELL' });
});
afterEach(() => slack.close());

const history = async (params: Record<string, string>) => {
  const res = await fetch(`${slack.apiUrl}conversations.history`, {
    method: 'POST',
    headers: { authorization: 'Bearer xoxb-local', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  return (await res.json()) as { ok: boolean; error?: string; messages?: { ts: string; text: string; metadata?: unknown }[] };
};

it('lists the channel’s top-level messages after oldest, newest first; metadata when asked for', async () => {
  const metadata = { event_type: 'cloudbot_maintenance_summary', event_payload: { window_id: 'mw_abcdefgh' } };
  const a = slack.model.post({ channel: 'C0OPS', text: 'a', blocks: [] });
  slack.model.post({ channel: 'C0OPS', text: 'reply', blocks: [], threadTs: a.ts });
  slack.model.post({ channel: 'C0OPS', text: 'b', blocks: [], metadata });
  slack.model.post({ channel: 'C0DEV', text: 'elsewhere', blocks: [] });
  const c = slack.model.post({ channel: 'C0OPS', text: 'c', blocks: [] });
  expect((await history({ channel: 'C0OPS' })).messages!.map((m) => m.text)).toEqual(['c', 'b', 'a']);
  const since = await history({ channel: 'C0OPS', oldest: a.ts, include_all_metadata: 'true' });
  expect(since.messages!.map((m) => [m.text, m.metadata])).toEqual([['c', undefined], ['b', metadata]]);
  expect((await history({ channel: 'C0OPS', oldest: c.ts })).messages).toEqual([]);
  expect((await history({ channel: 'C0OPS' })).messages!.every((m) => m.metadata === undefined)).toBe(true);
  expect(await history({ channel: '' })).toEqual({ ok: false, error: 'channel_not_found' });
});
