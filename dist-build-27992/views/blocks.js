import { cutMrkdwn, md, plain, trusted, val } from './mrkdwn.js';
export const LIMITS = {
    blocksPerMessage: 50,
    blocksPerModal: 100,
    sectionText: 3000,
    fieldText: 2000,
    fields: 10,
    headerText: 150,
    contextElements: 10,
    actionsElements: 25,
    buttonText: 75,
    buttonValue: 2000,
    messageText: 4000,
};
/** A value in inline code (ids, names, addresses): see `val`. */
export const code = (v) => val(v);
const mrkdwnText = (text, max) => ({ type: 'mrkdwn', text: cutMrkdwn(text, max), verbatim: true });
const asBlock = (b) => b;
export function header(text) {
    return asBlock({ type: 'header', text: { type: 'plain_text', text: plain(text, LIMITS.headerText), emoji: true } });
}
export function section(text) {
    return asBlock({ type: 'section', text: mrkdwnText(text, LIMITS.sectionText) });
}
/**
 * A section of plain text: Slack parses nothing in it (no markup, no emoji codes), so a value
 * that inline code cannot show as it is (one with a backtick) is shown exactly here.
 */
export function plainSection(text) {
    return asBlock({ type: 'section', text: { type: 'plain_text', text: plain(text, LIMITS.sectionText), emoji: false } });
}
/** A section of label/value pairs, two columns in Slack; at most 10 fields. */
export function fields(pairs) {
    return asBlock({
        type: 'section',
        fields: pairs.slice(0, LIMITS.fields).map(([label, value]) => mrkdwnText(md `*${label}*\n${value}`, LIMITS.fieldText)),
    });
}
export function context(...texts) {
    return asBlock({
        type: 'context',
        elements: texts.slice(0, LIMITS.contextElements).map((t) => mrkdwnText(t, LIMITS.sectionText)),
    });
}
export function divider() {
    return asBlock({ type: 'divider' });
}
export function button(b) {
    if (b.value.length > LIMITS.buttonValue)
        throw new Error(`button value over ${LIMITS.buttonValue} characters`);
    return {
        type: 'button',
        text: { type: 'plain_text', text: plain(b.text, LIMITS.buttonText), emoji: true },
        action_id: b.actionId,
        value: b.value,
        ...(b.style ? { style: b.style } : {}),
    };
}
export function actions(blockId, buttons) {
    return asBlock({ type: 'actions', block_id: blockId, elements: buttons.slice(0, LIMITS.actionsElements) });
}
/**
 * Lines of a list packed into as few sections as fit, within a block budget. What does not
 * fit is summarised as "…and N more" rather than sent and rejected by Slack.
 */
export function lineSections(lines, maxBlocks, more = (n) => md `…and ${n} more`) {
    const blocks = [];
    let current = [];
    let length = 0;
    const budget = LIMITS.sectionText - 40; // room for the "and N more" line
    let i = 0;
    for (; i < lines.length; i++) {
        const line = cutMrkdwn(lines[i], budget);
        if (length + line.length + 1 > budget) {
            if (blocks.length + 1 >= maxBlocks)
                break;
            blocks.push(section(trusted(current.join('\n'))));
            current = [];
            length = 0;
        }
        current.push(line);
        length += line.length + 1;
    }
    if (i < lines.length)
        current.push(md `_${more(lines.length - i)}_`);
    if (current.length)
        blocks.push(section(trusted(current.join('\n'))));
    return blocks;
}
//# sourceMappingURL=blocks.js.map