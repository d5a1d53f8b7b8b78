/** Shared bits of the cloud client tests: a clock that never really waits, error capture. */
import { createManualClock } from '../../src/clock.js';
import type { Clock } from '../../src/clock.js';
import { createCloudClient } from '../../src/cloud/client.js';
import type { CloudClientOptions, ClosableCloudClient } from '../../src/cloud/client.js';
import { CloudApiError } from '../../src/cloud/errors.js';
import type { TransportEvent } from '../../src/cloud/http.js';
import type { FakeServer } from './fake-server.js';

export const TOKEN = 'tok_SeCrEt-4f9a8b7c6d5e';

/**
 * A manual clock whose sleeps move time forward by exactly their length, at once: backoff is
 * observable (`sleeps`, `now()`) and costs no wall time.
 */
export function autoClock(): Clock & { sleeps: number[]; elapsed(): number } {
  const manual = createManualClock();
  const start = manual.now();
  const sleeps: number[] = [];
  return {
    now: () => manual.now(),
    sleep(ms) {
      sleeps.push(ms);
      const done = manual.sleep(ms);
      setImmediate(() => void manual.advance(ms));
      return done;
    },
    sleeps,
    elapsed: () => manual.now() - start,
  };
}

export function clientFor(
  server: FakeServer,
  options: Partial<CloudClientOptions> = {},
): ClosableCloudClient & { events: TransportEvent[] } {
  const events: TransportEvent[] = [];
  const client = createCloudClient({
    baseUrl: server.baseUrl,
    token: TOKEN,
    clock: autoClock(),
    retry: { random: () => 0.5 },
    onEvent: (e) => events.push(e),
    ...options,
  });
  return Object.assign(client, { events });
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

export const SERVER_UUID = '3f2a9c4e-8b1d-4e6f-a7c2-9d0e1f2a3b4c';
export const BACKUP_UUID = 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e';
export const WORKER_UUID = '9e8d7c6b-5a4f-4e3d-2c1b-0a9f8e7d6c5b';
