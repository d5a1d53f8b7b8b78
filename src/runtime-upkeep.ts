/**
 * The change flow's upkeep, on every replica: changes a stopped process left confirmed or running
 * are closed (confirm/upkeep.ts recoverInterrupted) once at start and then with the sweep of
 * expired confirmations. Part of the composition root (runtime.ts).
 */
import type { ChangeFlow } from './confirm/change-types.js';
import type { Logger } from './log.js';

/** Closes what a stopped process left (awaited at start, so nothing starts on top of it). */
export async function recoverChanges(flow: Pick<ChangeFlow, 'recoverInterrupted'>, logger: Logger): Promise<void> {
  const recovered = await flow.recoverInterrupted();
  if (recovered) logger.warn('changes a stopped process left confirmed or running were closed (running: outcome unknown; confirmed: not sent)', { count: recovered });
}

/** Every `everyMs`: expired confirmations, and changes a dead replica left. Returns the stop. */
export function startUpkeep(flow: Pick<ChangeFlow, 'recoverInterrupted' | 'expireDue'>, logger: Logger, everyMs: number): () => void {
  const sweep = setInterval(() => {
    flow.expireDue().catch((error: unknown) => logger.error('expiry sweep failed', { error }));
    recoverChanges(flow, logger).catch((error: unknown) => logger.error('recovery sweep failed', { error }));
  }, everyMs);
  sweep.unref();
  return () => clearInterval(sweep);
}
