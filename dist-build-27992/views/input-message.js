import { join, val } from './mrkdwn.js';
import { words } from './words.js';
export function inputMessage(message) {
    const parts = [];
    let last = 0;
    for (const m of message.matchAll(/“([^“”]*)”/g)) {
        parts.push(words(message.slice(last, m.index)), val(m[1]));
        last = m.index + m[0].length;
    }
    parts.push(words(message.slice(last)));
    return join(parts);
}
/**
 * Zod's own words ("Too big: expected string to have <=40 characters") never reach a person:
 * every safeParse whose message is shown passes this as its error map, so a schema without a
 * message of its own is still answered plainly, by issue code (zod uses it only where the
 * schema gives no message).
 */
export function plainIssue(issue) {
    const size = (n) => (typeof n === 'bigint' ? n.toString() : String(n));
    switch (issue.code) {
        case 'invalid_type':
            if (issue.input === undefined)
                return 'is required';
            return issue.expected === 'number' || issue.expected === 'int' || issue.expected === 'bigint' ? 'must be a number' : issue.expected === 'string' ? 'must be text' : 'is not the right kind of value';
        case 'too_big': {
            const most = issue.inclusive === false ? 'less than' : 'at most';
            if (issue.origin === 'string')
                return `must be ${most} ${size(issue.maximum)} characters long`;
            if (issue.origin === 'array' || issue.origin === 'set')
                return `may have ${most} ${size(issue.maximum)} entries`;
            return `must be ${most} ${size(issue.maximum)}`;
        }
        case 'too_small': {
            const least = issue.inclusive === false ? 'more than' : 'at least';
            if (issue.origin === 'string')
                return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be ${least} ${size(issue.minimum)} characters long`;
            if (issue.origin === 'array' || issue.origin === 'set')
                return Number(issue.minimum) <= 1 ? 'needs at least one entry' : `needs ${least} ${size(issue.minimum)} entries`;
            return `must be ${least} ${size(issue.minimum)}`;
        }
        case 'not_multiple_of':
            return issue.divisor === 1 ? 'must be a whole number' : `must be a multiple of ${size(issue.divisor)}`;
        case 'invalid_format':
            return issue.format === 'url' ? 'must be a URL' : issue.format === 'email' ? 'must be an email address' : issue.format === 'uuid' ? 'must be a uuid' : 'is not in a form that is accepted here';
        case 'invalid_value':
            return issue.values.length > 0 && issue.values.length <= 8 ? `must be one of: ${issue.values.map(String).join(', ')}` : 'is not one of the accepted values';
        case 'invalid_union':
            return 'is not in any of the accepted forms';
        case 'unrecognized_keys':
            return `has fields that are not known here: ${issue.keys.join(', ')}`;
        case 'invalid_key':
        case 'invalid_element':
            return 'has an entry that is not accepted';
        default:
            return 'is not accepted here';
    }
}
//# sourceMappingURL=input-message.js.map