/**
 * Structured logging: one JSON object per line. Every line passes through redaction, so a
 * token or password that reaches a log call by mistake is masked rather than written
 * (DEVELOPERS "never post a password or token to a channel or a log").
 */
import { LogLevel as BoltLogLevel } from '@slack/bolt';
const ORDER = { debug: 10, info: 20, warn: 30, error: 40 };
const MASK = '[redacted]';
/** Slack tokens, bearer headers, and password-like JSON/query fields. */
const PATTERNS = [
    [/xox[abpers]-[0-9A-Za-z-]+/g, MASK],
    [/xapp-[0-9A-Za-z-]+/g, MASK],
    [/(bearer\s+)[^\s"',]+/gi, `$1${MASK}`],
    [/("(?:password|root_password|token|secret|authorization)"\s*:\s*")((?:[^"\\]|\\.)*)(")/gi, `$1${MASK}$3`],
    [/((?:password|token)=)[^&\s"]+/gi, `$1${MASK}`],
];
export function createLogger(opts = {}, base = {}, shared) {
    const min = ORDER[opts.level ?? 'info'];
    const secrets = shared ?? new Set((opts.secrets ?? []).filter((s) => !!s && s.length >= 4));
    const sink = opts.sink ?? ((line) => process.stdout.write(line + '\n'));
    const now = opts.now ?? Date.now;
    const redact = (text) => {
        let out = text;
        for (const s of secrets)
            out = out.split(s).join(MASK);
        for (const [re, repl] of PATTERNS)
            out = out.replace(re, repl);
        return out;
    };
    const write = (level, msg, fields) => {
        if (ORDER[level] < min)
            return;
        const entry = { time: new Date(now()).toISOString(), level, msg, ...base, ...fields };
        sink(redact(JSON.stringify(entry, errorReplacer)));
    };
    return {
        debug: (m, f) => write('debug', m, f),
        info: (m, f) => write('info', m, f),
        warn: (m, f) => write('warn', m, f),
        error: (m, f) => write('error', m, f),
        child: (fields) => createLogger(opts, { ...base, ...fields }, secrets),
        isEnabled: (level) => ORDER[level] >= min,
        addSecret: (s) => {
            if (s && s.length >= 4)
                secrets.add(s);
        },
    };
}
function errorReplacer(_key, value) {
    if (value instanceof Error) {
        const e = value;
        return { name: e.name, message: e.message, ...(e.code !== undefined ? { code: e.code } : {}), ...(e.status !== undefined ? { status: e.status } : {}) };
    }
    return value;
}
/** Bolt wants a @slack/logger-shaped object; route it through ours so redaction applies. */
export function boltLogger(log) {
    const join = (args) => args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? a.message : JSON.stringify(a))).join(' ');
    let level = BoltLogLevel.INFO;
    // Bolt's Web API client logs every request body at debug level: build the line only when it
    // will be written, or each call pays for stringifying a payload nobody reads.
    const at = (level) => (...a) => {
        if (log.isEnabled(level))
            log[level](join(a), { source: 'bolt' });
    };
    return {
        debug: at('debug'),
        info: at('info'),
        warn: at('warn'),
        error: at('error'),
        setLevel: (l) => {
            level = l;
        },
        getLevel: () => level,
        setName: () => { },
    };
}
//# sourceMappingURL=log.js.map