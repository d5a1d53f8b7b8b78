/**
 * What a call to the client would send, without sending it: the real client methods over a
 * transport that records the request and answers nothing. A change's dry-run, status message
 * and audit entry read its request this way from the very call its `run` makes
 * (operations/change-request.ts), so they cannot drift from what is sent.
 *
 * The request is read synchronously: every client method builds and hands over its request
 * before its first `await`, so a `run` that calls the client at once is recorded before this
 * returns. A run that awaits something else first records nothing and is refused here (the
 * catalog test runs every change through this).
 */
import { assembleClient } from './client.js';
/** The answer the recording transport gives: never seen outside this module. */
const NOT_SENT = Symbol('not sent');
export class UnrecordableCallError extends Error {
    name = 'UnrecordableCallError';
}
/** The one request `call` sends, as built by endpoints.ts. */
export function recordRequest(call) {
    const sent = [];
    const transport = {
        send(req) {
            const query = Object.entries(req.query ?? {}).filter(([, v]) => v !== undefined);
            if (query.length)
                throw new UnrecordableCallError(`${req.method} ${req.path}: a request with a query string is not described`);
            sent.push({ method: req.method, path: req.path, ...(req.body === undefined ? {} : { body: req.body }) });
            return Promise.reject(NOT_SENT);
        },
        close: () => Promise.resolve(),
    };
    let result;
    try {
        result = call(assembleClient(transport));
    }
    catch (e) {
        throw new UnrecordableCallError('the call threw before sending a request', { cause: e });
    }
    // The recorder's refusal (or a validation error) ends the call; nobody awaits it.
    if (result instanceof Promise)
        result.catch(() => undefined);
    const [first, ...more] = sent;
    if (!first)
        throw new UnrecordableCallError('the call sent no request before its first await');
    if (more.length)
        throw new UnrecordableCallError(`the call sent ${sent.length} requests at once; one is described`);
    return first;
}
//# sourceMappingURL=recorder.js.map