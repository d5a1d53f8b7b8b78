import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createResponseUrls, type ResponseUrls } from '../rig/response-url.js';

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.statusCode, text: await res.body.text() };
}

describe('response_url endpoints', () => {
  let urls: ResponseUrls;
  afterEach(() => urls.close());

  it('hands out a unique URL per request and records each post', async () => {
    urls = await createResponseUrls();
    const a = urls.next();
    const b = urls.next();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/commands\//);
    expect(await post(a, { text: 'hello', response_type: 'ephemeral' })).toEqual({ status: 200, text: '{"ok":true}' });
    await post(b, { text: 'edited', replace_original: true });
    expect(urls.postsTo(a).map((p) => p.body)).toEqual([{ text: 'hello', response_type: 'ephemeral' }]);
    expect(urls.postsTo(b)[0]!.body).toEqual({ text: 'edited', replace_original: true });
  });

  it('accepts 5 posts per URL; the 6th gets 404 used_url', async () => {
    urls = await createResponseUrls();
    const url = urls.next();
    for (let i = 1; i <= 5; i++) expect((await post(url, { text: `post ${i}` })).status).toBe(200);
    expect(await post(url, { text: 'post 6' })).toEqual({ status: 404, text: 'used_url' });
    expect(urls.postsTo(url)).toHaveLength(5);
    expect(urls.posts.at(-1)).toMatchObject({ status: 404, error: 'used_url', body: { text: 'post 6' } });
  });

  it('expires a URL after 30 minutes', async () => {
    let now = 1_700_000_000_000;
    urls = await createResponseUrls({ now: () => now });
    const url = urls.next();
    now += 30 * 60 * 1000 + 1;
    expect(await post(url, { text: 'late' })).toEqual({ status: 404, text: 'expired_url' });
  });

  it('rejects bodies Slack would reject: no text, bad Block Kit, not JSON; unknown URLs', async () => {
    urls = await createResponseUrls();
    const url = urls.next();
    expect(await post(url, { response_type: 'ephemeral' })).toEqual({ status: 400, text: 'no_text' });
    expect(await post(url, { text: 'x', blocks: [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }] })).toEqual({
      status: 400,
      text: 'invalid_blocks',
    });
    expect(urls.violations).toEqual([expect.objectContaining({ url, path: '/blocks/0/text/text' })]);
    const raw = await request(url, { method: 'POST', body: 'text=hi' });
    expect(raw.statusCode).toBe(400);
    await raw.body.text();
    expect((await post(`${url}x`, { text: 'x' })).status).toBe(404);
    expect(await post(url, { delete_original: true })).toEqual({ status: 200, text: '{"ok":true}' });
  });
});
