/**
 * Arming pending schedules (issue 25): a schedule whose command needed a Confirm becomes active
 * once that change-flow record succeeded, and is closed when it was cancelled, expired or
 * failed. The scheduler does it at each look; `/cloud schedules` first, so a list right after
 * the click is current. A one-off confirmed after its time is armed as its Confirm said: to run
 * now, late, or not at all (done).
 *
 * A schedule is stored before its Confirm card is posted and noted with it (app/schedule-control.ts).
 * A process stopped in between leaves one with no record noted: its card, if it was made, is
 * found by its dedupe key and noted now; with no card after CARD_WAIT_MS, nothing can arm it,
 * and it is closed rather than left waiting for ever.
 */
import { nextAfter } from '../operations/schedule-when.js';
import type { Lateness } from '../operations/entries/schedule-confirm.js';
import type { ScheduleRecord, ScheduleStore } from '../store/schedule-types.js';
import type { OperationRecord, OperationStore } from '../store/types.js';

/** The dedupe key of a schedule's Confirm card (one card per schedule). */
export const confirmCardKey = (scheduleId: string): string => `sched-confirm:${scheduleId}`;
/** How long a pending schedule may go without its card before it is closed: far above posting one. */
export const CARD_WAIT_MS = 10 * 60_000;

export async function armConfirmed(store: ScheduleStore, operations: Pick<OperationStore, 'get' | 'byDedupeKey'>, now: number): Promise<void> {
  for (const s of await store.pending(50)) {
    let recordId = s.confirmRecord;
    if (!recordId) {
      const card = await operations.byDedupeKey(confirmCardKey(s.id));
      if (card) {
        await store.link(s.id, card.id, now);
        recordId = card.id;
      } else {
        if (now - s.createdAt >= CARD_WAIT_MS) await store.move(s.id, ['pending'], 'cancelled', now);
        continue;
      }
    }
    const r = await operations.get(recordId);
    if (r?.status === 'succeeded') {
      const nextAt = armedAt(s, r, now);
      await store.move(s.id, ['pending'], nextAt === null ? 'done' : 'active', now, nextAt);
    } else if (!r || r.status === 'cancelled' || r.status === 'expired' || r.status === 'failed') {
      await store.move(s.id, ['pending'], 'cancelled', now);
    }
  }
}

/** The first run of a schedule just confirmed; null when there is none. */
function armedAt(s: ScheduleRecord, r: OperationRecord, now: number): number | null {
  if (s.when.kind === 'once') {
    // As its Confirm said (schedule-confirm.ts): late runs now, so the grace cannot skip it
    // after all; missed does not run. Confirmed in time, its time stands (even if just past).
    const late = (r.result?.outputs as { late?: Lateness } | undefined)?.late;
    return late === 'missed' ? null : late === 'late' ? now : s.nextAt;
  }
  // A repeating one confirmed after its first run time: the next one from now on.
  return s.nextAt !== null && s.nextAt < now ? nextAfter(s.when, now) : s.nextAt;
}
