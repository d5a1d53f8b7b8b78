/**
 * The alert-scale section's helpers: the sandbox process (bench/lib/watch-cloud.ts, with the
 * monitor's agent), the store with its calls counted as work in flight, requests per sliding
 * minute, and matching Slack calls to the changes.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Store } from '../../src/store/index.js';
import { sibling } from './section.js';
import type { CloudRequest } from './watch-cloud.js';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** Forks the sandbox process; `args` are its argv (start, token, watcher agent, workers, latency, monitor agent). */
export async function startCloud(args: string[], metaUrl: string) {
  const child = fork(fileURLToPath(sibling('./lib/watch-cloud.ts', metaUrl)), args, { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, (m: unknown) => void>();
  const baseUrl = new Promise<string>((resolve, reject) => {
    child.on('message', (m: { id?: number; ready?: boolean; baseUrl?: string }) => {
      if (m.ready && m.baseUrl) return resolve(m.baseUrl);
      if (m.id !== undefined) pending.get(m.id)?.(m);
      if (m.id !== undefined) pending.delete(m.id);
    });
    child.once('exit', (code) => reject(new Error(`the sandbox process exited (${code})`)));
  });
  let seq = 0;
  return {
    baseUrl: await baseUrl,
    call: <T = unknown>(req: WithoutId<CloudRequest>) =>
      new Promise<T>((resolve) => {
        const id = ++seq;
        pending.set(id, resolve as (m: unknown) => void);
        child.send({ ...req, id });
      }),
    stop: () => new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.disconnect())),
  };
}

/**
 * `store` with each part's (watches, alerts, …) promise-returning calls counted by `busy` until
 * they settle, so a step can wait for the store as it waits for cloud requests.
 */
export function trackedStore(store: Store, busy: { start(): void; end(): void }): Store {
  const track = <T extends object>(part: T): T =>
    new Proxy(part, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const out: unknown = value.apply(target, args);
          if (!(out instanceof Promise)) return out;
          busy.start();
          return out.finally(busy.end);
        };
      },
    });
  const parts = Object.entries(store).map(([k, v]) => [k, v !== null && typeof v === 'object' ? track(v as object) : v]);
  return { ...(Object.fromEntries(parts) as unknown as Store), ready: () => store.ready?.() ?? Promise.resolve(), close: () => store.close() };
}

/** The most requests in any window [t, t + 60 s) over sorted instants. */
export function maxPerMinute(sorted: number[]): number {
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (j < sorted.length && sorted[j]! < sorted[i]! + 60_000) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

export interface SlackCall {
  kind: 'post' | 'reply' | 'update';
  channel: string;
  ts: string;
  at: number;
}

export interface HeldChange {
  server: string;
  offAt: number;
  onAt: number;
}

/**
 * Delays of the Slack calls backed by a held change (an alert post after its server went off,
 * an edit and a thread reply after it came back; once per subscription and kind); every other
 * call in an alert channel is a post without a change.
 */
export function account(calls: SlackCall[], alertByTs: Map<string, { server: string; subscriptionId: string }>, heldBy: Map<string, HeldChange>, flapped: Set<string>) {
  const delays = { post: [] as number[], update: [] as number[], reply: [] as number[] };
  const seen = new Set<string>();
  let withoutChange = 0;
  let flapPosts = 0;
  for (const call of calls) {
    const alert = alertByTs.get(`${call.channel}|${call.ts}`);
    const h = alert && heldBy.get(alert.server);
    if (alert && flapped.has(alert.server)) flapPosts++;
    const key = `${call.kind}|${alert?.subscriptionId}`;
    const from = call.kind === 'post' ? h?.offAt : h?.onAt;
    if (!alert || !h || from === undefined || call.at < from || (call.kind === 'post' && call.at >= h.onAt) || seen.has(key)) {
      withoutChange++;
      continue;
    }
    seen.add(key);
    delays[call.kind].push(call.at - from);
  }
  return { delays, withoutChange, flapPosts };
}
