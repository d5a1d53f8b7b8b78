export class SlackUnreachableError extends Error {
    name = 'SlackUnreachableError';
}
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;
/** Resolves once `auth.test` answers; throws `SlackUnreachableError` when the time is up. */
export async function waitForSlack(o) {
    const started = o.clock.now();
    let delay = FIRST_DELAY_MS;
    for (let attempt = 1;; attempt++) {
        try {
            await o.authTest();
            if (attempt > 1)
                o.logger.info('Slack answers again: auth.test succeeded', { attempts: attempt });
            return;
        }
        catch (e) {
            const reason = describe(e);
            // A refused token will not get better by waiting.
            const refused = rejectedToken(e, 'SLACK_BOT_TOKEN', 'auth.test');
            if (refused)
                throw refused;
            const waited = o.clock.now() - started;
            // The last wait is cut to end at the limit, so the message's time and the setting agree.
            if (o.timeoutMs > 0 && waited >= o.timeoutMs) {
                throw new SlackUnreachableError(`Slack did not answer auth.test within ${seconds(o.timeoutMs)} (SLACK_START_TIMEOUT_MS=${o.timeoutMs}; ${attempt} ${attempt === 1 ? 'try' : 'tries'}, last error: ${reason}); giving up.`);
            }
            if (o.timeoutMs > 0)
                delay = Math.min(delay, o.timeoutMs - waited);
            o.logger.warn(`waiting for Slack: auth.test failed (${reason}); trying again in ${seconds(delay)}`, {
                attempt,
                ...(o.timeoutMs > 0 ? { givingUpAfterS: Math.round(o.timeoutMs / 1000) } : {}),
            });
            await o.clock.sleep(delay, o.signal);
            delay = Math.min(delay * 2, MAX_DELAY_MS);
        }
    }
}
/** The error to stop with when Slack refused a token, naming which one (issue 14); else undefined. */
export function rejectedToken(e, token, call) {
    const reason = describe(e);
    if (!/invalid_auth|not_authed|account_inactive|token_revoked|token_expired/.test(reason))
        return undefined;
    return new SlackUnreachableError(`${token} was rejected by Slack (${call}: ${reason}). Check ${token}.`);
}
/** 1000 → "1 s", 2500 → "2.5 s". */
function seconds(ms) {
    return `${Math.round(ms / 100) / 10} s`;
}
function describe(e) {
    const data = e.data;
    if (data && typeof data.error === 'string')
        return data.error;
    const code = e.code;
    const message = e instanceof Error ? e.message : String(e);
    return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
//# sourceMappingURL=wait-for-slack.js.map