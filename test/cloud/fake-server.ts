/**
 * A scripted loopback HTTP server for the client's unit tests (not the stateful sandbox):
 * canned responses queued per `METHOD /path`, every request recorded as it came off the wire.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Canned {
  status?: number;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent verbatim (wins over `body`). */
  raw?: string;
  headers?: Record<string, string>;
  /** Never answer (the socket stays open until the server closes). */
  hang?: boolean;
  /** Destroy the socket without answering. */
  destroy?: boolean;
}

export interface Recorded {
  method: string;
  /** The request target exactly as received, query included. */
  rawUrl: string;
  /** `rawUrl` without the query. */
  rawPath: string;
  /** `rawPath` without the `/v2` prefix: what routes are scripted against. */
  route: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  bodyText: string;
  json: unknown;
}

export interface FakeServer {
  baseUrl: string;
  requests: Recorded[];
  /** Queue answers for `METHOD /path` (path relative to /v2, no query). The last one repeats. */
  script(method: string, route: string, ...answers: Canned[]): void;
  /** Answer for anything not scripted (default: 404 NOT_SCRIPTED). */
  fallback(answer: (req: Recorded) => Canned): void;
  close(): Promise<void>;
}

export const ok = (data: unknown, status = 200): Canned => ({ status, body: { data } });
export const page = (data: unknown[], current: number, last: number): Canned => ({
  status: 200,
  body: { data, meta: { current_page: current, last_page: last, per_page: 15, total: data.length } },
});
export const fail = (status: number, code: string, message: string, extra: Partial<Canned> = {}, details?: unknown): Canned => ({
  status,
  body: { error: { code, message, ...(details === undefined ? {} : { details }) } },
  ...extra,
});

function answer(res: ServerResponse, canned: Canned): void {
  if (canned.destroy) {
    res.socket?.destroy();
    return;
  }
  if (canned.hang) return;
  const status = canned.status ?? 200;
  const headers: Record<string, string> = { ...canned.headers };
  let payload = '';
  if (canned.raw !== undefined) payload = canned.raw;
  else if (canned.body !== undefined) {
    payload = JSON.stringify(canned.body);
    headers['content-type'] ??= 'application/json';
  }
  res.writeHead(status, headers);
  res.end(status === 204 ? undefined : payload);
}

export async function startFakeServer(): Promise<FakeServer> {
  const routes = new Map<string, Canned[]>();
  let otherwise: (req: Recorded) => Canned = () => ({
    status: 404,
    body: { error: { code: 'NOT_SCRIPTED', message: 'no scripted answer' } },
  });
  const requests: Recorded[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawUrl = req.url ?? '';
      const q = rawUrl.indexOf('?');
      const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
      const bodyText = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = bodyText ? JSON.parse(bodyText) : undefined;
      } catch {
        json = undefined;
      }
      const rec: Recorded = {
        method: req.method ?? '',
        rawUrl,
        rawPath,
        route: rawPath.replace(/^\/v2(?=\/)/, ''),
        query: new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1)),
        headers: req.headers,
        bodyText,
        json,
      };
      requests.push(rec);
      const queue = routes.get(`${rec.method} ${rec.route}`);
      const canned = queue && queue.length > 0 ? (queue.length > 1 ? queue.shift()! : queue[0]!) : otherwise(rec);
      answer(res, canned);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v2`,
    requests,
    script(method, route, ...answers) {
      routes.set(`${method} ${route}`, answers);
    },
    fallback(fn) {
      otherwise = fn;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
