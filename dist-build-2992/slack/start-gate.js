/**
 * The start-up window. The HTTP receiver listens before Slack has answered `auth.test` (so
 * `/healthz` and `/readyz` answer during the wait), and Bolt cannot authorize a request until
 * `app.init()` ran: without this gate such a request was acked and then failed with
 * "this.authorize is not a function". Now a request that arrives early is held until the bot is
 * ready, for as long as Slack's 3 s ack allows (`START_HOLD_MS`, the bot's clock). Past that it
 * is answered for what it is — nothing was done, try again in a moment — and never run:
 * - a slash command: the answer is the ack itself (no Web API call needed; Slack may be down);
 * - a click: acked, then told through its response_url (else privately in its channel);
 * - a form: refused with `response_action: errors`, so it stays open as filled in;
 * - an Events API event: not acked (HTTP 503, or no socket ack), so Slack redelivers it later.
 *   Events are the only requests Slack retries, and none of ours changes anything in the cloud.
 * Socket Mode connects only once the bot is ready (Slack routes nothing to a replica that has not
 * connected), so there the gate is already open; it holds the same rules if that ever changes.
 */
import { App, HTTPModuleFunctions, defaultProcessEventErrorHandler } from '@slack/bolt';
import { buildStarting, buildStartingModal, STARTING_FIELD_ERROR } from '../views/starting-views.js';
/** How long an early request waits for the bot to be ready: well inside Slack's 3 s for the ack. */
export const START_HOLD_MS = 2000;
export function createStartGate(clock, holdMs = START_HOLD_MS) {
    let opened = false;
    let held = 0;
    let release;
    const openPromise = new Promise((resolve) => (release = resolve));
    return {
        open() {
            opened = true;
            release();
        },
        isOpen: () => opened,
        held: () => held,
        async wait() {
            if (opened)
                return true;
            held++;
            const timer = new AbortController();
            try {
                const late = clock.sleep(holdMs, timer.signal).then(() => false, () => true);
                return await Promise.race([openPromise.then(() => true), late]);
            }
            finally {
                timer.abort();
                held--;
            }
        },
    };
}
/** Thrown for an event that must be redelivered; the receivers' error handlers below turn it into "not acked". */
export class NotReadyError extends Error {
    name = 'NotReadyError';
}
/** Bolt's App, with every request passing through the start gate first. */
export class GatedApp extends App {
    gateDeps;
    constructor(options, gateDeps) {
        super(options);
        this.gateDeps = gateDeps;
    }
    async processEvent(event) {
        const deps = this.gateDeps;
        if (deps.gate.isOpen() || (await deps.gate.wait()))
            return super.processEvent(event);
        await answerNotReady(event, deps);
    }
}
async function answerNotReady(event, deps) {
    const body = (event.body ?? {});
    const kind = typeof body.command === 'string' ? 'slash_command' : typeof body.type === 'string' ? body.type : 'unknown';
    deps.logger.warn('a request came before the bot was ready to serve it; the person is told to try again', { kind, holdMs: START_HOLD_MS });
    if (typeof body.command === 'string') {
        const typed = `${body.command} ${typeof body.text === 'string' ? body.text : ''}`.trim();
        const reply = buildStarting(typed);
        return event.ack({ response_type: 'ephemeral', text: reply.text, blocks: reply.blocks });
    }
    if (body.type === 'view_submission') {
        const input = body.view?.blocks?.find((b) => b.type === 'input' && typeof b.block_id === 'string');
        return event.ack(input ? { response_action: 'errors', errors: { [String(input.block_id)]: STARTING_FIELD_ERROR } } : { response_action: 'push', view: buildStartingModal() });
    }
    if (body.type === 'block_suggestion')
        return event.ack({ options: [] });
    if (body.type === 'event_callback')
        throw new NotReadyError('the bot is starting: the event is left for Slack to redeliver');
    await event.ack();
    if (body.type === 'block_actions')
        await tellClicker(body, deps);
}
async function tellClicker(body, deps) {
    const reply = buildStarting(undefined);
    try {
        if (typeof body.response_url === 'string' && /^https?:\/\//.test(body.response_url)) {
            const res = await fetch(body.response_url, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ response_type: 'ephemeral', replace_original: false, text: reply.text, blocks: reply.blocks }),
                signal: AbortSignal.timeout(deps.fetchTimeoutMs),
            });
            if (!res.ok)
                throw new Error(`response_url answered ${res.status}`);
            return;
        }
        const user = body.user?.id;
        const channel = body.channel?.id ?? body.container?.channel_id;
        if (typeof user !== 'string' || typeof channel !== 'string') {
            deps.logger.warn('a click before the bot was ready came from where no message can reach the person (a form or App Home)');
            return;
        }
        await deps.slack().postEphemeral({ channel, user, text: reply.text, blocks: reply.blocks });
    }
    catch (e) {
        deps.logger.warn('could not tell the person that the bot is starting', { error: e });
    }
}
/** HTTP: an event left for redelivery gets 503, which Slack retries; anything else as Bolt does. */
export async function httpProcessEventError(args) {
    if (!(args.error instanceof NotReadyError) || args.response.headersSent)
        return HTTPModuleFunctions.defaultProcessEventErrorHandler(args);
    args.response.writeHead(503, { 'retry-after': '5' });
    args.response.end();
    return true; // answered here: Bolt only marks it acknowledged (its 3 s "not acknowledged" timer stops)
}
/** Socket Mode: an event left for redelivery is not acked, so Slack sends it again. */
export async function socketProcessEventError(args) {
    if (args.error instanceof NotReadyError)
        return false;
    return defaultProcessEventErrorHandler(args);
}
//# sourceMappingURL=start-gate.js.map