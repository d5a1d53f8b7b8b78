/**
 * The bound on a stop (SIGTERM, a deploy): work a listener took before the stop — an answer
 * waiting on the cloud, a change being sent — gets `boundMs` to finish (SHUTDOWN_TIMEOUT_MS);
 * past it the bot stops anyway and says how much was still under way. Real time on purpose, not
 * the injected clock: a bound on shutdown must hold under a manual clock too.
 */
import type { Server } from 'node:http';
import type { Logger } from './log.js';
import type { AfterAck } from './slack/after-ack.js';

export { DEFAULT_SHUTDOWN_TIMEOUT_MS } from './config.js';

/** Resolves once the work is done, or after `boundMs`; true when it all finished. */
export async function settleListeners(afterAck: AfterAck, logger: Pick<Logger, 'warn'>, boundMs: number): Promise<boolean> {
  if (afterAck.inFlight() === 0) return true;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), boundMs).unref()));
  const outcome = await Promise.race([afterAck.idle().then(() => 'done' as const), late]);
  clearTimeout(timer);
  if (outcome === 'late') logger.warn('stopping with answers still under way', { inFlight: afterAck.inFlight(), boundMs });
  return outcome === 'done';
}

/**
 * While `stopping()`, every HTTP response says `Connection: close`, so a load balancer's
 * keep-alive connection to this replica ends cleanly after its answer instead of being reused
 * (a request sent on a socket the server is closing at that instant is lost to a reset).
 */
export function closeConnectionsWhileStopping(server: Server, stopping: () => boolean): void {
  server.prependListener('request', (_req, res) => {
    if (stopping()) res.setHeader('connection', 'close');
  });
}

/**
 * HTTP mode: the port stays open `ms` after the stop began (SHUTDOWN_DELAY_MS), answering
 * "restarting", so a load balancer sees `/readyz` 503 and stops routing here before connections
 * are refused or reset. Real time, as the bound above.
 */
export function listenerDelay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms).unref()) : Promise.resolve();
}
