import { buildSlowNotice } from '../views/error-views.js';
import { aliasNote, buildAliasNote } from '../views/alias-views.js';
import { failureReply } from './answer-failure.js';
import { nextTurn } from '../turns.js';
/** The slow-notice timer's abort reason: without one, abort() builds a DOMException (a stack) per answer. */
const ANSWERED = Symbol('answered');
export async function answerEphemeral(deps, respond, what, work, 
/**
 * replaceOriginal: the answer takes the place of the clicked (ephemeral) message, as a page
 * does. sharedOriginal: the button is on a channel message (an alert), which a response_url
 * would overwrite for everyone: every answer is a new private message instead.
 */
opts = {}) {
    const timer = new AbortController();
    const slow = deps.clock.sleep(deps.slowNoticeMs ?? 2000, timer.signal).then(() => 'slow', () => 'cancelled');
    let replace = opts.replaceOriginal ?? false;
    const first = await Promise.race([work.then(() => 'done', () => 'done'), slow]);
    if (first === 'slow') {
        await send(deps, respond, { ...buildSlowNotice(what), response_type: 'ephemeral', replace_original: replace });
        replace = !opts.sharedOriginal;
    }
    else {
        timer.abort(ANSWERED);
    }
    // A failure inside the bot (the store stayed locked) is an answer too, replacing any slow notice.
    const reply = await work.catch((e) => failureReply(deps.logger, what, e));
    // Sending waits one turn of the loop (waiting acks first, turns.ts).
    await nextTurn();
    await send(deps, respond, { ...reply, response_type: 'ephemeral', replace_original: replace });
}
async function send(deps, respond, message) {
    try {
        await respond(message);
    }
    catch (e) {
        // The response_url may have expired (30 min) or been used 5 times; nothing else can reach
        // an ephemeral reply, so log it rather than fail the handler.
        deps.logger.warn('could not answer through response_url', { error: e });
    }
}
/**
 * `respond` with "Ran `/cloud server status 101` (alias `web`)" above each answer; `flush`
 * sends the note alone when nothing else was answered privately (a change posted its status
 * message in the channel).
 */
export function notingAlias(respond, alias) {
    const note = aliasNote(alias.name, alias.expanded);
    let sent = false;
    const noted = (async (message) => {
        sent = true;
        if (typeof message === 'string' || message.delete_original)
            return respond(message);
        // A text-only answer stays so: blocks, once present, would hide its text.
        const blocks = message.blocks;
        if (!blocks?.length || blocks.length >= 50)
            return respond(message);
        return respond({ ...message, blocks: [note, ...blocks] });
    });
    return {
        respond: noted,
        async flush() {
            if (!sent)
                await respond({ response_type: 'ephemeral', ...buildAliasNote(alias.name, alias.expanded) });
        },
    };
}
//# sourceMappingURL=answer.js.map