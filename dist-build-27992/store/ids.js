import { randomBytes } from 'node:crypto';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
function base32(bytes) {
    let bits = 0;
    let acc = 0;
    let out = '';
    for (const b of bytes) {
        acc = (acc << 8) | b;
        bits += 8;
        while (bits >= 5) {
            bits -= 5;
            out += BASE32[(acc >>> bits) & 31];
        }
        acc &= (1 << bits) - 1;
    }
    return out;
}
/** 'op_' + 16 lower-case base32 characters (80 random bits): safe in URLs, button values and logs. */
export function newOperationId() {
    return `op_${base32(randomBytes(10))}`;
}
/**
 * 'w' + 8 base32 characters (40 bits): short enough to type in `/cloud watch cancel <id>`;
 * the table's primary key catches the rare collision.
 */
export function newWatchId() {
    return `w${base32(randomBytes(5))}`;
}
export const WATCH_ID_PATTERN = /^w[a-z2-7]{8}$/;
const ID_PATTERN = /^op_[a-z2-7]{16}$/;
/** True for strings shaped like an operation id (e.g. a button value from Slack). */
export function isOperationId(value) {
    return typeof value === 'string' && ID_PATTERN.test(value);
}
/** 'sub_' + 10 base32 characters (50 bits): short enough to type in `/cloud unsubscribe <id>`. */
export function newSubscriptionId() {
    return `sub_${base32(randomBytes(7)).slice(0, 10)}`;
}
export const SUBSCRIPTION_ID_PATTERN = /^sub_[a-z2-7]{10}$/;
/** 'alt_' + 10 base32 characters (50 bits); the primary key catches the rare collision. */
export function newAlertId() {
    return `alt_${base32(randomBytes(7)).slice(0, 10)}`;
}
export const ALERT_ID_PATTERN = /^alt_[a-z2-7]{10}$/;
//# sourceMappingURL=ids.js.map