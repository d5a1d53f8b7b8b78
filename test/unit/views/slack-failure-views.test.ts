import { describe, expect, it } from 'vitest';
import { buildFormNotOpened, buildOutcomeNotShown, buildSlackCallFailed, buildStatusNotPosted, slackDid } from '../../../src/views/slack-failure-views.js';
import { buildNote } from '../../../src/views/click-views.js';
import { md } from '../../../src/views/mrkdwn.js';

describe('Slack failure views', () => {
  it('say what Slack did: refused with its code, a server error, no answer in time, unreachable', () => {
    expect(slackDid('invalid_blocks', false)).toBe('Slack did not accept it (`invalid_blocks`)');
    expect(slackDid('http_503', true)).toBe('Slack answered with a server error (`http_503`)');
    expect(slackDid('timeout', true)).toBe('Slack did not answer in time');
    expect(slackDid('ratelimited', true)).toBe('Slack kept asking me to slow down (`ratelimited`)');
    expect(slackDid('request_failed', true)).toBe('Slack could not be reached (`request_failed`)');
  });

  it('a code carrying markup stays an inert value', () => {
    const hostile = '<!here> `x` <https://evil.example|click>';
    for (const r of [buildStatusNotPosted(hostile, false), buildFormNotOpened(hostile, false), buildSlackCallFailed('chat.update', hostile, false, 'ab12cd34')]) {
      const all = JSON.stringify(r);
      expect(all).not.toContain('<!here>');
      expect(all).not.toContain('<https://');
      expect(all).toContain('&lt;!here&gt;');
    }
  });

  it('the outcome notice keeps the status blocks after its own line', () => {
    const status = buildNote(md`*Rename* — done`);
    const r = buildOutcomeNotShown(status, 'http_500', true);
    expect(r.text).toBe('I could not update the status message in the channel, so here is the outcome: *Rename* — done');
    expect(r.blocks.slice(1)).toEqual(status.blocks);
  });
});
