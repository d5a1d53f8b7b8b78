/** Reading and decoding request bodies the way Slack's servers accept them. */
import type { IncomingMessage } from 'node:http';

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export type BodyParse = { ok: true; params: Record<string, unknown> } | { ok: false; error: string };

/**
 * Form bodies (what `@slack/web-api` sends) and JSON bodies (what apps may send with a
 * bearer token) both become a flat params object; query-string params are merged under them.
 */
export function parseParams(raw: string, contentType: string | undefined, query: URLSearchParams): BodyParse {
  const params: Record<string, unknown> = Object.fromEntries(query);
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (raw.length === 0) return { ok: true, params };
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return { ok: false, error: 'invalid_json' };
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return { ok: false, error: 'json_not_object' };
    }
    return { ok: true, params: { ...params, ...(parsed as Record<string, unknown>) } };
  }
  if (type === 'application/x-www-form-urlencoded' || type === '') {
    for (const [k, v] of new URLSearchParams(raw)) params[k] = v;
    return { ok: true, params };
  }
  return { ok: false, error: 'invalid_form_data' };
}
