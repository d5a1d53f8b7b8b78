/**
 * chat.unfurl (issue 23), answered like Slack: the target is a posted message (`channel` and
 * `ts`) or a composer link (`unfurl_id` and `source`, both); `unfurls` is a JSON object from
 * each URL to an attachment, and every URL must be one the message shared (`cannot_unfurl_url`).
 * People's messages are not posted through the Web API, so a test says first what was shared
 * (`FakeSlack.shareLinks`), as a person posting the message would; the unfurls are kept per
 * message and checked against Block Kit limits.
 */
import { fail, ok, str, type MethodHandler } from './fake-slack-context.js';
import { isObject, type JsonObject } from './json.js';

export const unfurlKey = (channel: string, ts: string) => `${channel}/${ts}`;

const unfurl: MethodHandler = (params, ctx) => {
  const { model } = ctx;
  const channel = str(params.channel);
  const ts = str(params.ts);
  const unfurlId = str(params.unfurl_id);
  const source = str(params.source);
  if (unfurlId || source) {
    if (!unfurlId || !source) return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] unfurl_id and source go together'] } });
    if (source !== 'composer' && source !== 'conversations_history') return fail('invalid_source');
  } else if (!channel || !ts) {
    return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] channel and ts, or unfurl_id and source, are required'] } });
  }
  let raw: unknown = params.unfurls;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      return fail('invalid_unfurls_format');
    }
  }
  if (!isObject(raw) || Object.keys(raw).length === 0) return fail('invalid_unfurls_format');
  const key = unfurlId ? `composer/${unfurlId}` : unfurlKey(channel!, ts!);
  if (channel && !model.channels.has(channel)) return fail('channel_not_found');
  const shared = model.sharedLinks.get(key);
  if (!shared) return fail('cannot_find_message');
  for (const [url, attachment] of Object.entries(raw)) {
    if (!shared.has(url)) return fail('cannot_unfurl_url');
    if (!isObject(attachment)) return fail('cannot_parse_attachment');
    if (attachment.blocks !== undefined && !Array.isArray(attachment.blocks)) return fail('invalid_blocks_format');
    const violations = ctx.check({ blocks: attachment.blocks ?? [] });
    if (violations.length > 0) return fail('invalid_blocks', { response_metadata: { messages: violations.map((v) => `[ERROR] ${v.message} [json-pointer:/unfurls${v.path}]`) } });
  }
  model.unfurls.set(key, { ...(model.unfurls.get(key) ?? {}), ...(raw as Record<string, JsonObject>) });
  return ok();
};

export const unfurlMethods: Record<string, MethodHandler> = { 'chat.unfurl': unfurl };
