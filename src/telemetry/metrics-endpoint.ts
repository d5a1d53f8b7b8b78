/**
 * `/metrics` (issue 24): on the HTTP receiver's port as a custom route, and in Socket Mode on a
 * small listener of its own (METRICS_PORT), beside `/healthz` and `/readyz` (Socket Mode has no
 * other port a probe could reach). With METRICS_TOKEN set, a scrape must carry
 * `Authorization: Bearer <token>`, compared in constant time; the probes stay open.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.js';

export const METRICS_PATH = '/metrics';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Answers one scrape. */
export function metricsHandler(metrics: Metrics, token: string | undefined) {
  // Hashes compare equal-length buffers, so the comparison takes the same time whatever was sent.
  const expected = token === undefined ? undefined : digest(`Bearer ${token}`);
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (expected && !timingSafeEqual(digest(req.headers.authorization ?? ''), expected)) {
      res.statusCode = 401;
      res.setHeader('www-authenticate', 'Bearer');
      res.end('unauthorized\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => {
        res.setHeader('content-type', contentType);
        res.end(body);
      },
      () => {
        res.statusCode = 500;
        res.end('metrics could not be collected\n');
      },
    );
  };
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Socket Mode's own listener: `/metrics`, the GET `routes` given (the probes) and nothing else. */
export async function listenForMetrics(handler: RouteHandler, port: number, routes: Record<string, RouteHandler> = {}): Promise<MetricsServer> {
  const served: Record<string, RouteHandler> = { ...routes, [METRICS_PATH]: handler };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (req.method === 'GET' && Object.hasOwn(served, path)) return served[path]!(req, res);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve, reject) => {
    // A port taken by another process is named by its variable, so the fix is obvious.
    server.once('error', (e) => reject(new Error(`METRICS_PORT ${port}: cannot listen for /metrics (${e.message})`)));
    server.listen(port, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
