import { HTTPReceiver, LogLevel, SocketModeReceiver, webApi } from '@slack/bolt';
import { systemClock } from '../clock.js';
import { boltLogger } from '../log.js';
import { registerChanges } from './register-changes.js';
import { registerCommand } from './register-command.js';
import { registerPager } from './register-pager.js';
import { registerWatchActions } from './register-watch-actions.js';
import { registerAlertActions } from './register-alert-actions.js';
import { registerHome } from './register-home.js';
import { slackApiDirect } from './slack-api-direct.js';
import { createSlackHttp } from './slack-http.js';
import { createLightFetch } from './light-fetch.js';
import { handlerFailureReply } from './respond-privately.js';
import { rejectedToken } from './wait-for-slack.js';
import { skipRetriedDeliveries } from './retried-deliveries.js';
import { createStartGate, GatedApp, httpProcessEventError, socketProcessEventError } from './start-gate.js';
/**
 * Web API calls answer a person in a chat, so they are bounded in seconds: each call times out
 * after 5 s and is tried at most three times (0.5 s, then 1 s apart; a 429's Retry-After is
 * honoured within those tries) — not the WebClient's default of ten retries over half an hour.
 */
export const SLACK_CALL_TIMEOUT_MS = 5000;
export const SLACK_RETRY = { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 1000, randomize: false };
/** The Bolt app and its receiver, listeners not registered yet (deferred initialization). */
export function createSlackApp(opts) {
    const { slack } = opts;
    const logger = boltLogger(opts.logger.child({ component: 'bolt' }));
    // Every Slack call (Web API, `respond`) on one keep-alive undici Agent, not Node's fetch (light-fetch.ts).
    const light = createLightFetch();
    const clientOptions = {
        ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
        fetch: light.fetch,
        timeout: opts.slackCallTimeoutMs ?? SLACK_CALL_TIMEOUT_MS,
        retryConfig: opts.slackRetryConfig ?? SLACK_RETRY,
    };
    const health = [
        // Liveness: the process answers; nothing is awaited.
        { path: '/healthz', method: 'GET', handler: (_req, res) => res.end('ok') },
        { path: '/readyz', method: 'GET', handler: (_req, res) => void readyz(opts.readiness, res) },
    ];
    if (slack.mode === 'shell' && !opts.receiver)
        throw new Error('shell mode needs the shell’s receiver');
    const receiver = opts.receiver ??
        (slack.mode === 'socket'
            ? new SocketModeReceiver({
                appToken: slack.appToken,
                logger,
                logLevel: LogLevel.INFO,
                // The socket client opens its connection through the Web API (apps.connections.open),
                // so it must use the same API URL as the app's own client.
                installerOptions: { clientOptions },
                processEventErrorHandler: socketProcessEventError,
            })
            : new HTTPReceiver({
                signingSecret: slack.signingSecret,
                endpoints: '/slack/events',
                logger,
                logLevel: LogLevel.INFO,
                customRoutes: health,
                // Ack is sent as soon as a handler calls ack(); work continues after (never before).
                processBeforeResponse: false,
                processEventErrorHandler: httpProcessEventError,
            }));
    // Requests that come before Slack answered auth.test wait for `app.init()` (start-gate.ts).
    const gate = createStartGate(opts.clock ?? systemClock);
    const gateDeps = { gate, logger: opts.logger, slack: () => slackApi, fetchTimeoutMs: clientOptions.timeout };
    const app = new GatedApp({
        token: slack.botToken,
        receiver,
        logger,
        logLevel: LogLevel.INFO,
        clientOptions,
        deferInitialization: true,
        // The error handler gets the request's body, so it can still answer the person.
        extendedErrorHandler: true,
        // No listener keeps conversation state; Bolt's default store costs an Error per event.
        convoStore: false,
    }, gateDeps);
    const probe = new webApi.WebClient(slack.botToken, {
        ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
        timeout: SLACK_CALL_TIMEOUT_MS,
        retryConfig: { retries: 0 },
        // wait-for-slack.ts says what failed and what happens next; the client's own
        // "http request failed" warning would only repeat it without the plan.
        logger: { ...logger, debug: () => { }, info: () => { }, warn: () => { } },
    });
    // The bot's own calls skip the WebClient (slack-http.ts: same rules, far less CPU per call);
    // Bolt keeps its client for its internals and the listeners' `client`.
    const http = createSlackHttp({
        token: slack.botToken,
        ...(slack.apiUrl ? { apiUrl: slack.apiUrl } : {}),
        dispatcher: light.agent,
        timeoutMs: clientOptions.timeout,
        retry: clientOptions.retryConfig,
    });
    const slackApi = slackApiDirect(http);
    return {
        app,
        slackApi,
        authTestOnce: () => probe.auth.test(),
        ...(receiver instanceof HTTPReceiver ? { httpReceiver: receiver } : {}),
        closeConnections: light.close,
        gate,
    };
}
async function readyz(readiness, res) {
    let body;
    try {
        body = readiness ? await readiness() : { ready: true, checks: {} };
    }
    catch (e) {
        body = { ready: false, checks: { readiness: e instanceof Error ? e.message : String(e) } };
    }
    res.statusCode = body.ready ? 200 : 503;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
}
/** Registers every listener of the bot, and the last-resort error handler. */
export function registerListeners(app, deps) {
    app.use(skipRetriedDeliveries(deps)); // a retry of a delivery already taken goes no further
    registerCommand(app, deps);
    registerPager(app, deps);
    registerChanges(app, deps);
    registerWatchActions(app, deps);
    registerAlertActions(app, deps);
    registerHome(app, deps);
    // Last resort: whatever a listener did not answer itself is logged with a reference and
    // told to the person through the response_url (or privately in the channel).
    app.error(async ({ error, body }) => {
        const cause = error.original ?? error;
        const b = (body ?? {});
        const reply = handlerFailureReply(deps.logger, typeof b.command === 'string' ? b.command : 'that action', cause);
        try {
            if (typeof b.response_url === 'string' && /^https?:\/\//.test(b.response_url)) {
                const res = await fetch(b.response_url, {
                    method: 'POST',
                    headers: { 'content-type': 'application/json' },
                    body: JSON.stringify({ response_type: 'ephemeral', replace_original: false, text: reply.text, blocks: reply.blocks }),
                    signal: AbortSignal.timeout(SLACK_CALL_TIMEOUT_MS),
                });
                if (!res.ok)
                    throw new Error(`response_url answered ${res.status}`);
                return;
            }
            const user = typeof b.user_id === 'string' ? b.user_id : b.user?.id;
            const channel = typeof b.channel_id === 'string' ? b.channel_id : b.channel?.id;
            if (typeof user === 'string' && typeof channel === 'string')
                await deps.slack.postEphemeral({ channel, user, text: reply.text, blocks: reply.blocks });
        }
        catch (e) {
            deps.logger.warn('could not tell the person about a failed handler', { error: e });
        }
    });
}
/**
 * Starts receiving; in HTTP mode resolves with the port actually bound (port 0 in tests).
 * HTTP mode starts the receiver itself (Bolt's `app.start` refuses before `init`), so that
 * `/healthz` and `/readyz` answer while the bot still waits for Slack.
 */
export async function listen(app, slack, httpReceiver) {
    // Socket Mode opens its connection with the app token: a refused one is named as such.
    const started = httpReceiver ? httpReceiver.start(slack.port) : app.start(slack.port);
    const server = (await started.catch((e) => {
        throw (slack.mode === 'socket' ? rejectedToken(e, 'SLACK_APP_TOKEN', 'apps.connections.open') : undefined) ?? e;
    }));
    if (slack.mode === 'http' && server && typeof server.address === 'function') {
        const address = server.address();
        return { port: address?.port ?? slack.port };
    }
    return {};
}
//# sourceMappingURL=app.js.map