/**
 * Integration harness: the real Cloud API client (src/cloud) against the real sandbox
 * (src/sandbox) over loopback. Both share one manual clock: the sandbox's lifecycles read it,
 * and the client's retry waits advance it at once by exactly their length, so backoff and
 * `Retry-After` are observable (`sleeps`) and cost no wall time.
 */
import { inspect } from 'node:util';
import { expect } from 'vitest';
import { createManualClock } from '../../src/clock.js';
import type { Clock, ManualClock } from '../../src/clock.js';
import { createCloudClient } from '../../src/cloud/client.js';
import type { CloudClientOptions, ClosableCloudClient } from '../../src/cloud/client.js';
import { CloudApiError } from '../../src/cloud/errors.js';
import type { TransportEvent } from '../../src/cloud/http.js';
import { createSandbox } from '../../src/sandbox/index.js';
import type { ListeningSandbox, Sandbox, SandboxOptions } from '../../src/sandbox/index.js';

/** Distinctive, so a leak into any error text is easy to spot. */
export const TOKEN = 'tok-SECRET-abc123xyz';

export interface ClientClock extends Clock {
  /** Every wait the client asked for, in ms, in order. */
  readonly sleeps: number[];
}

/** Sleeps on `manual` and advances it by the same amount on the next turn. */
export function autoAdvancing(manual: ManualClock): ClientClock {
  const sleeps: number[] = [];
  return {
    now: () => manual.now(),
    sleep(ms, signal) {
      sleeps.push(ms);
      const done = manual.sleep(ms, signal);
      setImmediate(() => void manual.advance(ms));
      return done;
    },
    sleeps,
  };
}

export type TestClient = ClosableCloudClient & { events: TransportEvent[]; clock: ClientClock };

export interface Rig {
  sandbox: Sandbox;
  clock: ManualClock;
  server: ListeningSandbox;
  client: TestClient;
  /** Another client on the same sandbox (own options, e.g. a wrong token); closed by `close`. */
  clientWith(options: Partial<CloudClientOptions>): TestClient;
  /** Requests recorded since `mark` (an index into `sandbox.requests`). */
  since(mark: number): Sandbox['requests'];
  close(): Promise<void>;
}

export async function startRig(opts: SandboxOptions = {}, clientOptions: Partial<CloudClientOptions> = {}): Promise<Rig> {
  const clock = createManualClock();
  const sandbox = createSandbox({ token: TOKEN, clock, ...opts });
  const server = await sandbox.listen();
  const clients: TestClient[] = [];
  const clientWith = (options: Partial<CloudClientOptions>): TestClient => {
    const events: TransportEvent[] = [];
    const clientClock = autoAdvancing(clock);
    const c = createCloudClient({
      baseUrl: server.baseUrl,
      token: TOKEN,
      clock: clientClock,
      // Deterministic backoff: half the ceiling (125 ms for the first retry).
      retry: { random: () => 0.5 },
      onEvent: (e) => events.push(e),
      ...options,
    });
    const out = Object.assign(c, { events, clock: clientClock });
    clients.push(out);
    return out;
  };
  const client = clientWith(clientOptions);
  return {
    sandbox,
    clock,
    server,
    client,
    clientWith,
    since: (mark) => sandbox.requests.slice(mark),
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await server.close();
    },
  };
}

/** Awaits a promise that must reject with a CloudApiError and returns it. */
export async function cloudError(promise: Promise<unknown>): Promise<CloudApiError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof CloudApiError) return e;
    throw new Error(`expected a CloudApiError, got ${String(e)}`, { cause: e });
  }
  throw new Error('expected a rejection, got a result');
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable) out.push(x);
  return out;
}

/** The token must not appear in any rendering of the error (nor of its cause). */
export function expectNoToken(err: CloudApiError, token = TOKEN): void {
  const views = [
    err.message,
    String(err),
    err.stack ?? '',
    JSON.stringify(err),
    JSON.stringify(err.cause ?? null),
    JSON.stringify(err.details ?? null),
    inspect(err, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
  ];
  for (const view of views) expect(view).not.toContain(token);
}

/** Deep copy of a JSON-able value, to compare state before and after a refused call. */
export const snapshot = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export const DAY = 86_400_000;
export const GiB = 1024 ** 3;
