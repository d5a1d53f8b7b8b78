/**
 * A response_url posted outside `respond` (the start gate's early click, the last-resort error
 * handler) goes through the bot's own fetch on its own undici Agent, never Node's global fetch.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLightFetch } from '../../src/slack/light-fetch.js';
import { responseUrlPoster, type PostToResponseUrl } from '../../src/slack/response-url.js';
import { buildStarting } from '../../src/views/starting-views.js';
import { readBody } from '../rig/http-body.js';
import { listenLoopback, type Loopback } from '../rig/loopback.js';

let server: Loopback;
let agent: Agent;
let post: PostToResponseUrl;
let seen: { path: string; type: string | undefined; body: unknown }[];
let status: number;

beforeEach(async () => {
  seen = [];
  status = 200;
  server = await listenLoopback(
    createServer((req, res) => {
      void readBody(req).then((body) => {
        seen.push({ path: req.url ?? '', type: req.headers['content-type'], body: JSON.parse(body) });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'no');
      });
    }),
  );
  agent = new Agent({ keepAliveTimeout: 1000 });
  post = responseUrlPoster(createLightFetch(agent).fetch, 5000);
});
afterEach(async () => {
  await agent.close().catch(() => {});
  await server.close();
});

describe('responseUrlPoster', () => {
  it('posts the reply privately, as a new message, once', async () => {
    const reply = buildStarting(undefined);
    expect(await post(`${server.origin}/hooks/1`, reply)).toBe(true);
    expect(seen).toEqual([{ path: '/hooks/1', type: 'application/json', body: { response_type: 'ephemeral', replace_original: false, text: reply.text, blocks: reply.blocks } }]);
  });

  it('sends nothing to what is not an http(s) URL, and says so', async () => {
    expect(await post('file:///etc/passwd', buildStarting(undefined))).toBe(false);
    expect(await post(undefined, buildStarting(undefined))).toBe(false);
    expect(seen).toEqual([]);
  });

  it('a refusal from Slack is an error for the caller to log', async () => {
    status = 404;
    await expect(post(`${server.origin}/hooks/expired`, buildStarting(undefined))).rejects.toThrow('response_url answered 404');
  });

  it('rides on the Agent it was given: once that is closed, nothing goes out', async () => {
    await agent.close();
    await expect(post(`${server.origin}/hooks/2`, buildStarting(undefined))).rejects.toThrow();
    expect(seen).toEqual([]);
  });

  it('no Slack code calls the global fetch (light-fetch.ts hands Node’s fetch only a non-string body, a file upload)', () => {
    const dir = resolve(__dirname, '../../src/slack');
    const calls = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/(?<![.\w])fetch\(/g)].map(() => f));
    expect(calls).toEqual(['light-fetch.ts']);
  });
});
