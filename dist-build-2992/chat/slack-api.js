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