/**
 * The "type the hostname" form of a destructive change: what was typed must match what the
 * entry asks for before the change flow is asked to confirm. The answer is data: errors under
 * the field, or accepted — `confirm` then runs the flow's one-time Confirm and says what, if
 * anything, the person should be told privately and where.
 */
import type { ChangeFlow } from '../confirm/change-types.js';
import type { Catalog } from '../operations/catalog.js';
import { typedMatches } from '../operations/typed-confirm.js';
import type { OperationStore } from '../store/types.js';
import { typedMismatchError } from '../views/modal-views.js';
import type { Reply } from '../views/types.js';
import { clickReply } from './change-clicks.js';

export interface TypedConfirmDeps {
  flow: ChangeFlow;
  store: Pick<OperationStore, 'get'>;
  catalog: Catalog;
}

export type TypedConfirmAnswer =
  /** What was typed does not match; `channelId`: the request's channel. */
  | { kind: 'errors'; errors: Record<string, string>; channelId: string }
  | {
      kind: 'accepted';
      /** The request's channel (where a failure inside the bot is told), when the record is known. */
      channelId?: string;
      confirm(): Promise<{ channelId: string; reply: Reply } | undefined>;
    };

export async function confirmTyped(deps: TypedConfirmDeps, input: { recordId: string; typed: string; userId: string }): Promise<TypedConfirmAnswer> {
  const { recordId, typed, userId } = input;
  const record = await deps.store.get(recordId);
  const op = record ? deps.catalog.byId(record.opId) : undefined;
  const expected = record && op?.change?.typeToConfirm?.(record.args as never, record.facts);
  if (record && expected && !typedMatches(typed, expected)) return { kind: 'errors', errors: { typed: typedMismatchError(expected) }, channelId: record.channelId };
  return {
    kind: 'accepted',
    ...(record ? { channelId: record.channelId } : {}),
    async confirm() {
      const outcome = await deps.flow.confirm(recordId, userId, typed);
      const reply = record && clickReply(outcome);
      return record && reply ? { channelId: record.channelId, reply } : undefined;
    },
  };
}
