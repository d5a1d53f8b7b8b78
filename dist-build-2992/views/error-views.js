import { context, lineSections, section } from './blocks.js';
import { join, md, val } from './mrkdwn.js';
import { words } from './words.js';
/** `what` is the command as the bot names it (`/cloud server status`), shown as code. */
export function buildCloudError(what, e) {
    const blocks = [section(md `:warning: *${val(what)} failed.* ${e.summary}`)];
    if (e.fields) {
        const lines = Object.entries(e.fields).map(([field, msgs]) => md `• ${val(field)}: ${join(msgs.map((m) => val(m)), '; ')}`);
        blocks.push(...lineSections(lines, 10));
    }
    blocks.push(context(md `${e.nextStep} (code ${val(e.code)})`));
    return { text: md `${val(what)} failed: ${e.summary}`, blocks };
}
/**
 * The parser's message quotes what was typed (with backticks of its own), so it is shown
 * whole as one value, its backticks dropped. `usage` gives an operation's usage line.
 */
export function buildProblem(p, usage) {
    const message = p.message;
    const lines = [md `${p.notOffered ? md `:no_entry_sign:` : md `:grey_question:`} ${message}`];
    if (p.didYouMean)
        lines.push(md `Did you mean ${val(p.didYouMean)}?`);
    const blocks = [section(join(lines, '\n'))];
    if (p.usage.length) {
        const usages = p.usage.slice(0, 12).map((op) => md `${val(usage(op))} — ${words(op.summary)}`);
        blocks.push(...lineSections(usages, 4));
    }
    blocks.push(context(md `\`/cloud help\` lists every command.`));
    return { text: message, blocks };
}
export function buildSlowNotice(what) {
    return {
        text: md `${val(what)}: the cloud is slow to answer`,
        blocks: [context(md `:hourglass_flowing_sand: ${val(what)}: the cloud is slow to answer. I will update this message when it does.`)],
    };
}
export function buildInternalError(what, ref) {
    return {
        text: md `${val(what)} failed unexpectedly`,
        blocks: [section(md `:boom: *${val(what)} failed unexpectedly* inside the bot. An admin can find it in the log under reference ${val(ref)}.`)],
    };
}
/** A command longer than a slash command may be (tokenize.ts COMMAND_TEXT_MAX): not read at all. */
export function buildCommandTooLong(length, max) {
    const text = md `:grey_question: That command is ${length} characters long; a \`/cloud\` command may be at most ${max} characters. Nothing was run.`;
    return { text, blocks: [section(text)] };
}
/** The bot has as much work under way as it takes: this request was not started at all. */
export function buildBusy(what) {
    const text = md `:hourglass: I am busy with many requests right now, so ${val(what)} was not started and nothing was done. Try again in a moment.`;
    return { text, blocks: [section(text)] };
}
/** The bot's own database could not answer (STORE_UNAVAILABLE): not a bug, and nothing went to the cloud. */
export function buildStoreUnavailable(what, ref) {
    return {
        text: md `${val(what)} was not done: the bot's database is unavailable. Nothing was sent; try again in a moment.`,
        blocks: [
            section(md `:warning: *${val(what)} was not done:* the bot's database is unavailable right now, so *nothing was sent* to the cloud. Try again in a moment.`),
            context(md `If it keeps happening, an admin can find it in the log under reference ${val(ref)}.`),
        ],
    };
}
//# sourceMappingURL=error-views.js.map