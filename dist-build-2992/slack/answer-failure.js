/**
 * The last word of any Slack handler that failed inside the bot (a store that stayed locked,
 * a bug): the person gets the internal-error view with a reference — or, when the bot's
 * database could not answer, says so (nothing was sent; try again) — and the log gets the
 * error once, under that reference. Handlers catch here instead of leaving the error to
 * Bolt's "unhandled error in a Slack handler", which tells the person nothing.
 */
import { randomBytes } from 'node:crypto';
import { isStoreUnavailable } from '../store/errors.js';
import { buildInternalError, buildStoreUnavailable } from '../views/error-views.js';
/** Logs the failure once under a new reference; returns what to show the person. */
export function failureReply(logger, what, error, fields = {}) {
    const ref = randomBytes(4).toString('hex');
    const store = isStoreUnavailable(error);
    logger.error(store ? 'the store could not answer; the person is told' : 'a Slack handler failed inside the bot; the person is told', {
        ref,
        what,
        ...(store ? { storeUnavailable: error.reason } : {}),
        ...fields,
        error,
    });
    return store ? buildStoreUnavailable(what, ref) : buildInternalError(what, ref);
}
/** `failureReply`, then sends it; a failure to send is logged (as a warning), never thrown. */
export async function tellFailure(logger, what, error, send, fields = {}) {
    const reply = failureReply(logger, what, error, fields);
    try {
        await send(reply);
    }
    catch (e) {
        logger.warn('could not tell the person about a failure', { error: e, what });
    }
}
//# sourceMappingURL=answer-failure.js.map