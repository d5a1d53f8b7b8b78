/**
 * Arming pending schedules (issue 25): a schedule whose command needed a Confirm becomes active
 * once that change-flow record succeeded, and is closed when it was cancelled, expired or
 * failed. The scheduler does it at each look; `/cloud schedules` first, so a list right after
 * the click is current.
 */
import { nextAfter } from '../operations/schedule-when.js';
import type { ScheduleStore } from '../store/schedule-types.js';
import type { OperationStore } from '../store/types.js';

export async function armConfirmed(store: ScheduleStore, operations: Pick<OperationStore, 'get'>, now: number): Promise<void> {
  for (const s of await store.pending(50)) {
    if (!s.confirmRecord) continue;
    const r = await operations.get(s.confirmRecord);
    if (r?.status === 'succeeded') {
      // Confirmed after its first run time: the next one from now on.
      const nextAt = s.nextAt !== null && s.nextAt < now ? nextAfter(s.when, now) : s.nextAt;
      await store.move(s.id, ['pending'], nextAt === null ? 'done' : 'active', now, nextAt);
    } else if (!r || r.status === 'cancelled' || r.status === 'expired' || r.status === 'failed') {
      await store.move(s.id, ['pending'], 'cancelled', now);
    }
  }
}
