/**
 * What a workflow step says when it stops waiting for its change (run-step.ts, `giveUpMs`), and
 * the one thing it does first: a change nobody confirmed is closed (pending → cancelled, in the
 * store, so of the close and a Confirm clicked in the same instant exactly one wins) and its card
 * edited to say so without buttons. A Confirm after this finds the request over, so the step's
 * "nothing was sent" stays true. A close that loses follows what won: an outcome already there
 * is told; a change just confirmed fails the step saying it may still be under way — the step
 * does not wait past its bound, as for a change confirmed earlier.
 */
import { auditEntry } from '../audit/entry.js';
import type { Clock } from '../clock.js';
import type { ChangeFlow } from '../confirm/change-types.js';
import type { Auditor } from '../domain/audit-entry.js';
import type { Logger } from '../log.js';
import type { AnyOperation } from '../operations/types.js';
import type { StepOutcome } from '../store/step-store.js';
import type { OperationRecord, OperationStore } from '../store/types.js';
import { STEP_GAVE_UP } from '../views/status-views.js';
import * as words from '../views/step-views.js';

export interface GiveUpDeps {
  operations: Pick<OperationStore, 'transition'>;
  flow: Pick<ChangeFlow, 'retell'>;
  auditor?: Auditor;
  clock: Clock;
  logger: Logger;
}

/** `record` is the step's change, still under way when last looked at; `follow` reads a record's outcome (undefined: under way). */
export async function giveUp(
  deps: GiveUpDeps,
  op: AnyOperation,
  record: OperationRecord,
  follow: (r: OperationRecord) => Promise<StepOutcome | undefined>,
): Promise<StepOutcome> {
  const error = (e: string): StepOutcome => ({ outcome: 'error', error: e });
  if (record.status === 'pending') {
    const closed = await deps.operations.transition(record.id, {
      from: ['pending'],
      to: 'cancelled',
      now: deps.clock.now(),
      patch: { errorCode: STEP_GAVE_UP, errorMessage: 'the workflow step that asked for this change stopped waiting for a Confirm' },
    });
    if (closed.ok) {
      // A card Slack does not edit now still says "awaiting": its Confirm finds the record closed.
      await deps.flow
        .retell(record.id, undefined)
        .catch((error: unknown) => void deps.logger.warn('could not edit the card of a change a workflow step gave up on', { record: record.id, error }));
      await deps.auditor?.record(
        auditEntry({
          op,
          userId: closed.record.requestedBy,
          channelId: closed.record.channelId,
          args: closed.record.args,
          outcome: 'cancelled',
          record: closed.record,
          detail: 'closed: the workflow step stopped waiting for a Confirm',
        }),
      );
      return error(words.stepGaveUpClosed());
    }
    if (!closed.record) return error(words.stepOutcomeUnknown());
    const outcome = await follow(closed.record);
    if (outcome) return outcome;
    record = closed.record;
  }
  return error(record.status === 'succeeded' ? words.stepGaveUpUnfinished() : words.stepGaveUpUnderway());
}
