/**
 * The sandbox cloud for the watch-scale section, in a process of its own: in production the
 * cloud is remote, so neither its memory nor its CPU may count as the bot's. Its lifecycles run
 * on a manual clock that the parent moves over IPC before each watcher pass, so both sides see
 * the same simulated instant. Each answer takes a little real time (argv latency, a few ms),
 * so concurrent polls really overlap at the server. It tells the parent its base URL, and at the end how many
 * requests each worker's status got from the watcher and the most it ever had in flight.
 *
 *   parent → { id, type: 'time', now }                → { id }
 *   parent → { id, type: 'build', uuid, buildMs }     → { id, startedAt }
 *   parent → { id, type: 'report', agent }            → { id, requests: Record<uuid, n>, other, peak }
 *
 * For the alert-scale section (the monitor's agent is the optional 7th argument):
 *   parent → { id, type: 'servers', count }           → { id, ids }   (clones of the seeded web-1, running)
 *   parent → { id, type: 'power', server, state }     → { id }        (as from the panel, at the current instant)
 *   parent → { id, type: 'flap', server }             → { id }        (off now; on again right after the next
 *                                                                      status answer, so exactly one poll sees it)
 *   parent → { id, type: 'times' }                    → { id, watcher: number[], monitor: number[], flapsSeen }
 *                                                        (the simulated instant of every request of each agent)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createManualClock } from '../../src/clock.js';
import { createSandbox } from '../../src/sandbox/index.js';

export type CloudRequest =
  | { id: number; type: 'time'; now: number }
  | { id: number; type: 'build'; uuid: string; buildMs: number }
  | { id: number; type: 'report' }
  | { id: number; type: 'servers'; count: number }
  | { id: number; type: 'power'; server: string; state: 'on' | 'off' }
  | { id: number; type: 'flap'; server: string }
  | { id: number; type: 'times' };

export interface RequestTimes {
  watcher: number[];
  monitor: number[];
  /** Flapping servers that a poll saw (and that were then powered on again). */
  flapsSeen: number;
}

export interface CloudReport {
  requests: Record<string, number>;
  /** Watcher requests to anything but a worker's status. */
  other: number;
  peak: number;
}

const start = Number(process.argv[2]);
const token = String(process.argv[3]);
const watcherAgent = String(process.argv[4]);
const workersAllowed = Number(process.argv[5]);
const latencyMs = Number(process.argv[6] ?? 0);
const monitorAgent = process.argv[7];

const clock = createManualClock(start);
const sandbox = createSandbox({ token, clock });
Object.assign(sandbox.state.account, { workersAllowed, balance: 1_000_000 });
let inFlight = 0;
let peak = 0;
const times: Omit<RequestTimes, 'flapsSeen'> = { watcher: [], monitor: [] };
/** Servers to power on again once their next status answer has gone out. */
const flapping = new Set<string>();
let flapsSeen = 0;
const inner = sandbox.handler;
sandbox.handler = (req: IncomingMessage, res: ServerResponse) => {
  const agent = req.headers['user-agent'];
  if (agent === watcherAgent) {
    times.watcher.push(clock.now());
    peak = Math.max(peak, ++inFlight);
    res.once('close', () => inFlight--);
  } else if (monitorAgent !== undefined && agent === monitorAgent) {
    times.monitor.push(clock.now());
    const server = /^\/v2\/servers\/([^/]+)\/status$/.exec(req.url ?? '')?.[1];
    if (server !== undefined && flapping.has(server)) {
      res.once('finish', () => {
        if (flapping.delete(server)) {
          flapsSeen++;
          sandbox.powerServer(server, 'on');
        }
      });
    }
  }
  inner(req, res);
};
const listening = await sandbox.listen();
sandbox.setLatency(latencyMs);

process.on('message', (m: CloudRequest) => {
  switch (m.type) {
    case 'time':
      clock.set(m.now);
      process.send?.({ id: m.id });
      return;
    case 'build': {
      const w = sandbox.state.workers.find((x) => x.uuid === m.uuid);
      if (w?.build) w.build.buildMs = m.buildMs;
      process.send?.({ id: m.id, startedAt: w?.build?.startedAt ?? null });
      return;
    }
    case 'servers': {
      // Clones of the seeded web-1 (running, nothing installing), with ids of their own.
      const template = sandbox.state.servers.find((x) => x.powerState === 'running' && x.status === null)!;
      const ids: string[] = [];
      for (let i = 0; i < m.count; i++) {
        const id = 10_000 + i;
        const uuid = `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`;
        sandbox.state.servers.push({ ...structuredClone(template), id, uuid, uuidShort: uuid.slice(0, 8), name: `bench-${i}`, hostname: `bench-${i}.example.net`, ips: [] });
        ids.push(String(id));
      }
      process.send?.({ id: m.id, ids });
      return;
    }
    case 'power':
      sandbox.powerServer(m.server, m.state);
      process.send?.({ id: m.id });
      return;
    case 'flap':
      sandbox.powerServer(m.server, 'off');
      flapping.add(m.server);
      process.send?.({ id: m.id });
      return;
    case 'times':
      process.send?.({ id: m.id, ...times, flapsSeen } satisfies RequestTimes & { id: number });
      return;
    case 'report': {
      const requests: Record<string, number> = {};
      let other = 0;
      for (const r of sandbox.requests) {
        if (r.userAgent !== watcherAgent) continue;
        if (r.segments[0] === 'workers' && r.segments[2] === 'status') requests[r.segments[1]!] = (requests[r.segments[1]!] ?? 0) + 1;
        else other++;
      }
      process.send?.({ id: m.id, requests, other, peak } satisfies CloudReport & { id: number });
      return;
    }
  }
});
process.on('disconnect', () => {
  void listening.close().then(() => process.exit(0));
});
process.send?.({ ready: true, baseUrl: listening.baseUrl });
