/**
 * The Slack part of the runtime contract: tokens, SLACK_MODE (or the mode the tokens imply),
 * PORT, the Web API URL and how long start-up waits for Slack. Pure zod and checks over the
 * env object config.ts hands in; config.ts alone reads the environment.
 */
import { z } from 'zod';
import { isSet, optional, port } from './config-fields.js';
import { isHttpUrl } from './urls.js';

type Env = Record<string, string | undefined>;

/** How Slack reaches the bot; `shell` is the local shell (no Slack at all). */
export type SlackMode = 'socket' | 'http' | 'shell';

export const slackEnvSchema = {
  SLACK_BOT_TOKEN: optional(z.string().regex(/^xoxb-/, { error: 'must be a bot token (xoxb-…)' })),
  SLACK_APP_TOKEN: optional(z.string().regex(/^xapp-/, { error: 'must be an app-level token (xapp-…)' })),
  SLACK_SIGNING_SECRET: optional(z.string().min(8, { error: 'looks too short for a signing secret' })),
  SLACK_MODE: optional(z.enum(['socket', 'http', 'shell'], { error: 'must be socket, http or shell' })),
  PORT: port(3000),
  SLACK_API_URL: optional(
    z.string().refine(isHttpUrl, { error: 'must be an http(s) URL, e.g. https://slack.com/api/' }),
  ),
  SLACK_START_TIMEOUT_MS: optional(
    z.coerce.number({ error: 'must be a number of milliseconds' }).int({ error: 'must be a whole number of milliseconds' }).min(0, { error: 'must be 0 (wait forever) or more' }),
  ),
};

/** The mode the environment asks for: SLACK_MODE, else socket/http from the tokens, else the local shell. */
export function selectMode(env: Env): SlackMode | undefined {
  const forced = env.SLACK_MODE?.trim();
  if (forced) return forced === 'socket' || forced === 'http' || forced === 'shell' ? forced : undefined;
  if (isSet(env.SLACK_APP_TOKEN)) return 'socket';
  // Nothing about Slack is configured: a newcomer's first `npm start` gets the local shell.
  if (!isSet(env.SLACK_BOT_TOKEN) && !isSet(env.SLACK_SIGNING_SECRET)) return 'shell';
  return 'http';
}

/** Which tokens the chosen mode needs; checked apart from the schema so all problems show at once. */
export function modeProblems(env: Env, mode: SlackMode | undefined): string[] {
  const problems: string[] = [];
  if (!isSet(env.SLACK_BOT_TOKEN)) problems.push('SLACK_BOT_TOKEN is required (the bot token, xoxb-…, from the app’s OAuth page)');
  if (mode === 'socket' && !isSet(env.SLACK_APP_TOKEN))
    problems.push('SLACK_APP_TOKEN is required in Socket Mode (an app-level token, xapp-…, with connections:write)');
  if (mode === 'http' && !isSet(env.SLACK_SIGNING_SECRET)) {
    // Chosen from the tokens, not by SLACK_MODE: Socket Mode (an app token) may be what was meant.
    const orSocket = env.SLACK_MODE?.trim() ? '' : '; or, for Socket Mode, set SLACK_APP_TOKEN (an app-level token, xapp-…, with connections:write)';
    problems.push(`SLACK_SIGNING_SECRET is required in HTTP mode (from the app’s Basic Information page)${orSocket}`);
  }
  return problems;
}
