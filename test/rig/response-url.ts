/**
 * response_url endpoints on loopback. `next()` hands out a fresh URL per slash command or
 * interaction; every POST to it is recorded. Like Slack, a URL takes at most 5 posts within
 * 30 minutes: later ones get 404 `used_url`, late ones 404 `expired_url` (limits from
 * secondary sources, see shared/slack-facts.md). Bodies are JSON messages
 * (`text`, `blocks`, `response_type`, `replace_original`, `delete_original`, `thread_ts`),
 * checked against Block Kit limits (400 `invalid_blocks`).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { findBlockKitViolations, type BlockKitViolation } from './block-kit-limits.js';
import { readBody } from './http-body.js';
import { isObject, type JsonObject } from './json.js';
import { listenLoopback } from './loopback.js';
import { TEAM } from './workspace.js';

export const RESPONSE_URL_MAX_POSTS = 5;
export const RESPONSE_URL_TTL_MS = 30 * 60 * 1000;

export interface ResponseUrlPost {
  url: string;
  /** Parsed JSON body (`{}` when it was not JSON). */
  body: JsonObject;
  raw: string;
  at: number;
  /** What the endpoint answered: 200, or 400/404 with `error`. */
  status: number;
  error?: string;
}

export interface ResponseUrlViolation extends BlockKitViolation {
  url: string;
}

export interface ResponseUrls {
  /** A fresh URL, as Slack puts into each payload's `response_url`. */
  next(): string;
  /** Every POST, accepted or not, in arrival order. */
  posts: ResponseUrlPost[];
  /** Accepted posts to one URL. */
  postsTo(url: string): ResponseUrlPost[];
  violations: ResponseUrlViolation[];
  close(): Promise<void>;
}

export interface ResponseUrlOptions {
  now?: () => number;
  maxPosts?: number;
  ttlMs?: number;
}

export async function createResponseUrls(options: ResponseUrlOptions = {}): Promise<ResponseUrls> {
  const now = options.now ?? Date.now;
  const maxPosts = options.maxPosts ?? RESPONSE_URL_MAX_POSTS;
  const ttlMs = options.ttlMs ?? RESPONSE_URL_TTL_MS;
  const issued = new Map<string, { issuedAt: number; used: number }>();
  const posts: ResponseUrlPost[] = [];
  const violations: ResponseUrlViolation[] = [];
  let counter = 0;

  function judge(path: string, body: JsonObject | undefined): { status: number; error?: string } {
    const entry = issued.get(path);
    if (!entry) return { status: 404, error: 'no_service' };
    if (now() - entry.issuedAt > ttlMs) return { status: 404, error: 'expired_url' };
    if (entry.used >= maxPosts) return { status: 404, error: 'used_url' };
    if (!body) return { status: 400, error: 'invalid_payload' };
    if (body.delete_original !== true) {
      const hasContent = (typeof body.text === 'string' && body.text !== '') || Array.isArray(body.blocks);
      if (!hasContent) return { status: 400, error: 'no_text' };
      const found = findBlockKitViolations({ text: body.text, blocks: body.blocks });
      if (found.length > 0) {
        violations.push(...found.map((v) => ({ ...v, url: `${origin}${path}` })));
        return { status: 400, error: 'invalid_blocks' };
      }
    }
    entry.used += 1;
    return { status: 200 };
  }

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      let body: JsonObject | undefined;
      try {
        const parsed: unknown = JSON.parse(raw);
        body = isObject(parsed) ? parsed : undefined;
      } catch {
        body = undefined;
      }
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const verdict = req.method === 'POST' ? judge(path, body) : { status: 405, error: 'method_not_allowed' };
      posts.push({ url: `${origin}${path}`, body: body ?? {}, raw, at: now(), ...verdict });
      if (verdict.status === 200) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      else res.writeHead(verdict.status, { 'content-type': 'text/plain' }).end(verdict.error);
    })().catch((err: unknown) => res.writeHead(500).end(String(err)));
  });
  const loopback = await listenLoopback(server);
  const origin = loopback.origin;

  return {
    next: () => {
      counter += 1;
      const path = `/commands/${TEAM.id}/${counter}/${randomBytes(12).toString('hex')}`;
      issued.set(path, { issuedAt: now(), used: 0 });
      return `${origin}${path}`;
    },
    posts,
    postsTo: (url) => posts.filter((p) => p.url === url && p.status === 200),
    violations,
    close: () => loopback.close(),
  };
}
