/**
 * Answers that must reach the person although Slack's Web API is failing: through the
 * response_url, which is not the Web API. And the answer to a handler that failed because of
 * Slack itself, which names what Slack did rather than blaming the bot.
 */
import { randomBytes } from 'node:crypto';
import { SlackApiError } from '../chat/slack-api.js';
import { buildSlackCallFailed } from '../views/slack-failure-views.js';
import { failureReply } from './answer-failure.js';
/** A private answer through the response_url; a failure to answer is logged, never thrown. */
export async function respondPrivately(logger, respond, reply) {
    if (!respond)
        return false;
    try {
        await respond({ response_type: 'ephemeral', replace_original: false, text: reply.text, blocks: reply.blocks });
        return true;
    }
    catch (e) {
        // Expired (30 min) or used 5 times: nothing else reaches this person.
        logger.warn('could not answer through response_url', { error: e });
        return false;
    }
}
/** Logs a failed handler once under a new reference; returns what to show the person. */
export function handlerFailureReply(logger, what, error) {
    if (!(error instanceof SlackApiError))
        return failureReply(logger, what, error);
    const ref = randomBytes(4).toString('hex');
    logger.error('Slack failed a call a handler made; the person is told', { ref, what, method: error.method, code: error.code, error });
    return buildSlackCallFailed(error.method, error.code, error.failure === 'unavailable', ref);
}
//# sourceMappingURL=respond-privately.js.map