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
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createManualClock } from '../../src/clock.js';
import { createSandbox } from '../../src/sandbox/index.js';

export type CloudRequest =
  | { id: number; type: 'time'; now: number }
  | { id: number; type: 'build'; uuid: string; buildMs: number }
  | { id: number; type: 'report' };

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

const clock = createManualClock(start);
const sandbox = createSandbox({ token, clock });
Object.assign(sandbox.state.account, { workersAllowed, balance: 1_000_000 });
let inFlight = 0;
let peak = 0;
const inner = sandbox.handler;
sandbox.handler = (req: IncomingMessage, res: ServerResponse) => {
  if (req.headers['user-agent'] === watcherAgent) {
    peak = Math.max(peak, ++inFlight);
    res.once('close', () => inFlight--);
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
