/**
 * Wire-level helpers: the error type routes throw, JSON answers, request parsing. Envelopes
 * follow cloud-api-v2.md "What the service does" 3 and "Errors"; statuses follow
 * provider-notes.md "HTTP status codes".
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A refusal a route throws; rendered as `{ error: { code, message, details? } }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what = 'Resource'): ApiError => new ApiError(404, 'NOT_FOUND', `${what} not found.`);

/** 422 with a business code (provider notes: "422 VALIDATION_ERROR and business refusals"). */
export const refusal = (code: string, message: string, details?: Record<string, unknown>): ApiError =>
  new ApiError(422, code, message, details);

/** A successful answer of a route; `body` undefined means no body (204). */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (data: unknown, meta?: unknown): Reply => ({ status: 200, body: meta === undefined ? { data } : { data, meta } });
export const created = (data: unknown, meta?: unknown): Reply => ({ status: 201, body: meta === undefined ? { data } : { data, meta } });
export const noContent = (): Reply => ({ status: 204 });

export function sendReply(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(reply.status, headers);
  res.end(text);
}

export function errorReply(err: ApiError): Reply {
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.details !== undefined) error.details = err.details;
  return { status: err.status, body: { error }, ...(err.headers ? { headers: err.headers } : {}) };
}

export function sendRaw(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

export async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Parsed JSON body; `malformed` when the text is not JSON (answered 400 BAD_REQUEST). */
export function parseJson(text: string): { body: unknown; malformed: boolean } {
  if (text.trim() === '') return { body: undefined, malformed: false };
  try {
    return { body: JSON.parse(text) as unknown, malformed: false };
  } catch {
    return { body: undefined, malformed: true };
  }
}

export interface Target {
  /** Path exactly as received, %-encoding kept, without the query. */
  rawPath: string;
  query: Record<string, string>;
}

export function parseTarget(url: string | undefined): Target {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  const rawPath = q === -1 ? raw : raw.slice(0, q);
  const query: Record<string, string> = {};
  if (q !== -1) for (const [k, v] of new URLSearchParams(raw.slice(q + 1))) query[k] = v;
  return { rawPath, query };
}

/** Decodes each segment; undefined when an escape is malformed (answered as not found). */
export function decodeSegments(rawSegments: string[]): { segments: string[]; ok: boolean } {
  let ok = true;
  const segments = rawSegments.map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      ok = false;
      return s;
    }
  });
  return { segments, ok };
}

/** `Authorization: Bearer <token>` check (spec "Authentication"). */
export function hasBearer(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return false;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m !== null && m[1] === token;
}

export const unauthenticated = (): ApiError =>
  new ApiError(401, 'UNAUTHENTICATED', 'Missing or invalid bearer token.', undefined, { 'www-authenticate': 'Bearer' });
