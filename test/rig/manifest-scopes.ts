/**
 * The bot scopes granted by the app manifest (manifest.yml at the repo root). The fake Slack
 * grants exactly these by default, so a bot calling a method whose scope the manifest lacks
 * fails in tests the way it would fail in a real workspace (`missing_scope`).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { isObject } from './json.js';

export const MANIFEST_URL = new URL('../../manifest.yml', import.meta.url);

export function manifestBotScopes(url: URL = MANIFEST_URL): string[] {
  const manifest: unknown = parse(readFileSync(url, 'utf8'));
  const oauth = isObject(manifest) ? manifest.oauth_config : undefined;
  const scopes = isObject(oauth) && isObject(oauth.scopes) ? oauth.scopes.bot : undefined;
  if (!Array.isArray(scopes)) throw new Error(`${url.pathname}: oauth_config.scopes.bot is missing`);
  return scopes.map(String);
}

/** Bot-token scopes each method needs today (the 2021 spec's `chat:write:bot` etc. are legacy names). */
export const METHOD_SCOPES: Record<string, string[]> = {
  'chat.postMessage': ['chat:write'],
  'chat.postEphemeral': ['chat:write'],
  'chat.update': ['chat:write'],
  'chat.delete': ['chat:write'],
  'chat.unfurl': ['links:write'],
  'conversations.join': ['channels:join'],
  'conversations.open': ['im:write'],
  'users.info': ['users:read'],
  'usergroups.users.list': ['usergroups:read'],
};

/** conversations.replies and conversations.history need the scope of the channel's type. */
export const HISTORY_SCOPES = { public: 'channels:history', private: 'groups:history', im: 'im:history' } as const;
