/**
 * What `/readyz` answers (the composition root's probe): the store answers within a bound, and
 * Slack has answered start-up's auth.test; from the first moment of a stop, not ready.
 */
import type { Clock } from './clock.js';
import type { Readiness } from './slack/app.js';
import type { Store } from './store/index.js';

/** How long `/readyz` waits for the store before answering "not ready" (probes often give up at 1–2 s). */
export const READY_CHECK_MS = 1000;

export interface ReadinessProbe {
  readiness: () => Promise<Readiness>;
  /** What the probe says about Slack: set by start-up (waiting for auth.test, then ok). */
  slack: (state: string) => void;
  /** A stop began: the load balancer sends new requests elsewhere. */
  stop: () => void;
  stopped: () => boolean;
}

export function createReadinessProbe(store: Pick<Store, 'operations'>, clock: Clock): ReadinessProbe {
  let slackState = 'not started';
  let stopped = false;
  const readiness = async (): Promise<Readiness> => {
    // Not ready from the first moment of a stop: the load balancer sends new requests elsewhere.
    if (stopped) return { ready: false, checks: { slack: 'stopping: taking no new requests' } };
    let storeState = 'ok';
    // A stalled database would hold the probe past its own timeout: "not ready" comes first.
    const timer = new AbortController();
    const silent = clock.sleep(READY_CHECK_MS, timer.signal).then(
      () => `no answer within ${READY_CHECK_MS / 1000} s`,
      () => 'ok',
    );
    try {
      storeState = await Promise.race([store.operations.listRecent({ limit: 1 }).then(() => 'ok'), silent]);
    } catch (e) {
      storeState = `unreachable: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      timer.abort();
    }
    return { ready: storeState === 'ok' && slackState === 'ok', checks: { store: storeState, slack: slackState } };
  };
  return {
    readiness,
    slack: (state) => {
      slackState = state;
    },
    stop: () => {
      stopped = true;
    },
    stopped: () => stopped,
  };
}
