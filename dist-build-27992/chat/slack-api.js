/** Slack's answers meaning the step is already over: nothing is left to tell it. */
export const STEP_ALREADY_OVER = new Set(['execution_not_in_running_state', 'function_execution_not_found']);
export class SlackApiError extends Error {
    code;
    method;
    failure;
    retryAfterMs;
    name = 'SlackApiError';
    constructor(code, method, failure = 'refused', 
    /** On `ratelimited`: Slack's Retry-After, in milliseconds, when it was given. */
    retryAfterMs) {
        super(failure === 'refused' ? `Slack refused ${method}: ${code}` : `Slack did not answer ${method}: ${code}`);
        this.code = code;
        this.method = method;
        this.failure = failure;
        this.retryAfterMs = retryAfterMs;
    }
}
/** Channels the bot cannot post to until someone invites it. */
export const NOT_REACHABLE = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action']);
//# sourceMappingURL=slack-api.js.map