/**
 * createSandbox: wires state, faults, control endpoints and the /v2 router into one
 * node:http listener. Order per /v2 request: record → match a fault → latency → fault answer
 * → auth (401) → malformed JSON (400) → settle lifecycles → route.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { systemClock } from '../clock.js';
import { control } from './control.js';
import { FaultRegistry, answers, applyFault } from './faults.js';
import {
  ApiError,
  decodeSegments,
  errorReply,
  hasBearer,
  parseJson,
  parseTarget,
  readText,
  sendReply,
  unauthenticated,
} from './http.js';
import type { Reply } from './http.js';
import { randomToken } from './ids.js';
import { settle } from './lifecycle.js';
import { changeWorker, powerServer } from './outside-changes.js';
import type { PowerChange, WorkerChange } from './outside-changes.js';
import { dispatch } from './router.js';
import type { RouteEnv } from './router.js';
import { routes } from './routes/index.js';
import { createState } from './seed.js';
import type { Fault, ListeningSandbox, RecordedRequest, Sandbox, SandboxOptions } from './types.js';
import { serverStatusView, workerView } from './views.js';

const under = (rawPath: string, prefix: string): boolean => rawPath === prefix || rawPath.startsWith(`${prefix}/`);

export function createSandbox(opts: SandboxOptions = {}): Sandbox {
  const clock = opts.clock ?? systemClock;
  const token = opts.token ?? randomToken();
  const state = createState(clock.now(), opts.seed ?? true);
  const requests: RecordedRequest[] = [];
  const faults = new FaultRegistry();
  const wait = opts.wait ?? ((ms: number) => delay(ms));
  let latencyMs = 0;
  let syncFailures = 0;

  const env = (now: number): RouteEnv => ({
    state,
    now,
    perPage: opts.perPage ?? 15,
    buildMs: opts.buildMs ?? 120_000,
    reinstallMs: opts.reinstallMs ?? 90_000,
    legacyPlanFields: opts.legacyPlanFields ?? false,
    // Spec "What the service does" 6: the change is saved before this runs; a failure keeps it.
    sync(groupId) {
      if (syncFailures <= 0) return;
      syncFailures -= 1;
      const group = state.securityGroups.find((g) => g.id === groupId);
      const nodes = [...new Set((group?.serverIds ?? []).map((id) => state.servers.find((s) => s.id === id)?.nodeId))].filter(
        (n): n is number => n !== undefined,
      );
      throw new ApiError(
        502,
        'HYPERVISOR_SYNC_FAILED',
        `The firewall change was saved but could not be applied on every node; retry POST /security-groups/${groupId}/deploy.`,
        { security_group_id: groupId, failed_nodes: nodes },
      );
    },
  });

  function answer(res: ServerResponse, run: () => Reply): void {
    try {
      sendReply(res, run());
    } catch (e) {
      if (e instanceof ApiError) sendReply(res, errorReply(e));
      else sendReply(res, errorReply(new ApiError(500, 'INTERNAL_ERROR', `Sandbox error: ${e instanceof Error ? e.message : String(e)}`)));
    }
  }

  async function handleV2(req: IncomingMessage, res: ServerResponse, method: string, rawPath: string, query: Record<string, string>, text: string) {
    const { segments, ok: decoded } = decodeSegments(rawPath.slice('/v2'.length).split('/').filter((s) => s !== ''));
    const { body, malformed } = parseJson(text);
    const path = `/${segments.join('/')}`;
    requests.push({ method, rawPath, path, segments, query, body, userAgent: req.headers['user-agent'], token: /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1], at: clock.now() });

    const fault = faults.take(method, path);
    const pause = latencyMs + (fault?.latencyMs ?? 0);
    if (pause > 0) await wait(pause);
    if (res.destroyed) return;
    if (fault && answers(fault)) {
      applyFault(fault, res);
      return;
    }
    answer(res, () => {
      if (!hasBearer(req, token)) throw unauthenticated();
      if (malformed) throw new ApiError(400, 'BAD_REQUEST', 'The request body is not valid JSON.');
      if (!decoded) throw new ApiError(404, 'NOT_FOUND', 'The requested resource was not found.');
      const now = clock.now();
      settle(state, now);
      return dispatch(routes, method, segments, { ...env(now), query, body });
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { rawPath, query } = parseTarget(req.url);
    const method = (req.method ?? 'GET').toUpperCase();
    const text = await readText(req);
    if (under(rawPath, '/v2')) return handleV2(req, res, method, rawPath, query, text);
    answer(res, () => {
      if (!under(rawPath, '/__sandbox')) throw new ApiError(404, 'NOT_FOUND', 'Not found; the API lives under /v2.');
      if (!hasBearer(req, token)) throw unauthenticated();
      const { body, malformed } = parseJson(text);
      if (malformed) throw new ApiError(400, 'BAD_REQUEST', 'The request body is not valid JSON.');
      const { segments } = decodeSegments(rawPath.slice('/__sandbox'.length).split('/').filter((s) => s !== ''));
      return control(sandbox, method, segments, body);
    });
  }

  const sandbox = {
    token,
    state,
    requests,
    get account() {
      return state.account;
    },
    handler(req: IncomingMessage, res: ServerResponse) {
      handle(req, res).catch((e: unknown) => {
        answer(res, () => {
          throw e;
        });
      });
    },
    addFault: (f: Fault) => faults.add(f),
    clearFaults: () => faults.clear(),
    faultCount: () => faults.size,
    setLatency(ms: number) {
      latencyMs = Math.max(0, ms);
    },
    failNextSyncs(n: number) {
      syncFailures = Math.max(0, Math.floor(n));
    },
    // Due lifecycles settle first, so a build that ended earlier cannot overwrite the change.
    powerServer(server: string | number, power: PowerChange) {
      const now = clock.now();
      settle(state, now);
      return serverStatusView(powerServer(state, server, power, now));
    },
    changeWorker(uuid: string, change: WorkerChange) {
      const now = clock.now();
      settle(state, now);
      return workerView(state, changeWorker(state, uuid, change, now, opts.buildMs ?? 120_000));
    },
    listen: (port = 0, host = '127.0.0.1') => listen(sandbox.handler, port, host),
  };
  return sandbox;
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  port: number,
  host: string,
): Promise<ListeningSandbox> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    baseUrl: `http://${urlHost}:${actual}/v2`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets would hold close() open until they time out.
        server.closeAllConnections();
      }),
  };
}
