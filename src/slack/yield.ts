/**
 * Post-ack work yields to the event loop between steps, so a request waiting for its ack is
 * read and acked before more of the work queued ahead of it runs (issue 15).
 */
import { setImmediate } from 'node:timers/promises';

/** Resolves in the check phase of this turn of the loop, after the I/O already read. */
export const yieldToAcks = (): Promise<void> => setImmediate();
