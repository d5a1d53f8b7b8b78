/**
 * The bench's I/O floor (bench/lib/floor-app.ts, issue 22) makes, for every command of the ack
 * mix, the requests the bot makes for it: the same cloud requests and the same Slack calls (a
 * response_url post for a read, views.open + views.update for a form). Both apps answer the
 * same commands against the same sandbox and fake Slack here; if the bot's requests change,
 * this fails and the floor is brought along, so "bot ÷ floor" keeps meaning the bot's own work.
 * The floor's Bolt-client form (`via: 'bolt-client'`) is held to the same requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../bench/lib/ack-generator.js';
import { startFloorApp, type FloorApp, type FloorVia } from '../../bench/lib/floor-app.js';
import { createSlackSender } from '../rig/slack-sender.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOT_TOKEN, OPS_CHANNEL, SIGNING_SECRET } from '../rig/workspace.js';
import { CLOUD_TOKEN, startBotRig, type BotRig } from './bot-rig.js';

let rig: BotRig;
const floors: Partial<Record<FloorVia, FloorApp>> = {};
const VIAS: FloorVia[] = ['undici', 'bolt-client'];
beforeAll(async () => {
  rig = await startBotRig();
  for (const via of VIAS) floors[via] = await startFloorApp({ slackUrl: rig.slack.url, cloudBaseUrl: rig.cloudUrl, cloudToken: CLOUD_TOKEN, botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET }, via);
});
afterAll(async () => {
  for (const via of VIAS) await floors[via]?.stop();
  await rig?.close();
});

/** What answering `text` at `eventsUrl` cost in requests: the cloud's, sorted, and the Slack methods called. */
async function requestsOf(eventsUrl: string, text: string, kind: 'read' | 'modal') {
  const cloudFrom = rig.sandbox.requests.length;
  const callsFrom = rig.slack.calls.length;
  const responseUrl = rig.responses.next();
  const postsFrom = rig.responses.posts.length;
  const ack = await createSlackSender(eventsUrl).command({ userId: ALICE.id, channelId: OPS_CHANNEL.id, text, responseUrl });
  expect(ack.status).toBe(200);
  if (kind === 'read') await waitFor(() => rig.responses.posts.slice(postsFrom).some((p) => p.url === responseUrl));
  else await waitFor(() => rig.slack.calls.slice(callsFrom).some((c) => c.method === 'views.update'));
  return {
    cloud: rig.sandbox.requests.slice(cloudFrom).map((r) => `${r.method} ${r.rawPath}`).sort(),
    slack: rig.slack.calls.slice(callsFrom).map((c) => c.method),
    responsePosts: rig.responses.posts.slice(postsFrom).length,
  };
}

describe('the I/O floor of the ack bench', () => {
  for (const c of COMMANDS) {
    it(`${c.text}: the same cloud requests and Slack calls as the bot, in both of the floor's forms`, async () => {
      const bot = await requestsOf(rig.eventsUrl, c.text, c.kind);
      expect(bot.cloud.length).toBeGreaterThan(0);
      for (const via of VIAS) expect({ via, ...(await requestsOf(floors[via]!.url, c.text, c.kind)) }).toEqual({ via, ...bot });
    });
  }
});
