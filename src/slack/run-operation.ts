/**
 * Runs one catalog operation for one person and turns whatever happens into a Reply: the
 * rendered result, a cloud refusal in plain words, or an internal error with a log reference.
 * Slash commands, pagination buttons and (later) modals and the local shell all come here, so
 * every path gets the same checks, logging and error text.
 */
import { randomBytes } from 'node:crypto';
import { isCloudApiError } from '../cloud/errors.js';
import type { CloudClient } from '../cloud/cloud-client.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { describeCloudError } from '../views/cloud-error-text.js';
import type { AnyOperation, Reply, WatchControl } from '../operations/types.js';
import { auditEntry } from '../audit/entry.js';
import type { Auditor } from '../audit/types.js';
import { rememberSecretsIn } from '../access/secrets.js';
import { buildCloudError, buildInternalError } from '../views/error-views.js';

export interface RunDeps {
  cloud: CloudClient;
  clock: Clock;
  logger: Logger;
  watches?: WatchControl;
  auditor?: Auditor;
  /** Upper bound on one operation, retries included (default 25 s). */
  operationTimeoutMs?: number;
}

export interface Actor {
  userId: string;
  channelId?: string;
  teamId?: string;
}

export interface RunOutcome {
  reply: Reply;
  ok: boolean;
  /** Cloud error code, when the cloud refused. */
  errorCode?: string;
}

export async function runOperation(
  deps: RunDeps,
  op: AnyOperation,
  args: Record<string, unknown>,
  actor: Actor,
): Promise<RunOutcome> {
  const started = deps.clock.now();
  const log = deps.logger.child({ op: op.id, user: actor.userId, channel: actor.channelId });
  const signal = AbortSignal.timeout(deps.operationTimeoutMs ?? 25_000);
  const audit = (outcome: 'succeeded' | 'failed', errorCode: string | null) =>
    deps.auditor?.record(
      auditEntry({ op, userId: actor.userId, channelId: actor.channelId, args, outcome, errorCode, durationMs: deps.clock.now() - started }),
    ) ?? Promise.resolve();
  try {
    const result: unknown = await op.run(
      {
        cloud: deps.cloud,
        clock: deps.clock,
        signal,
        ...(deps.watches ? { watches: deps.watches } : {}),
        ...(deps.auditor ? { audit: deps.auditor } : {}),
        actor,
      },
      args,
    );
    if (op.secret) rememberSecretsIn(deps.logger, result);
    const reply = op.render(result, args, { now: deps.clock.now() });
    log.info('operation succeeded', { ms: deps.clock.now() - started });
    await audit('succeeded', null);
    return { reply, ok: true };
  } catch (e) {
    const ms = deps.clock.now() - started;
    if (isCloudApiError(e)) {
      log.warn('operation refused by the cloud', { ms, code: e.code, status: e.status });
      await audit('failed', e.code);
      const text = describeCloudError(e, { mutation: op.mutates });
      return { reply: buildCloudError(op.command, text), ok: false, errorCode: e.code };
    }
    const ref = randomBytes(4).toString('hex');
    log.error('operation failed inside the bot', { ms, ref, error: e });
    await audit('failed', 'INTERNAL');
    return { reply: buildInternalError(op.command, ref), ok: false, errorCode: 'INTERNAL' };
  }
}
