/**
 * Structured logging: one JSON object per line. Every line passes through redaction, so a
 * token or password that reaches a log call by mistake is masked rather than written
 * (DEVELOPERS "never post a password or token to a channel or a log").
 */
import { LogLevel as BoltLogLevel, type Logger as BoltLogger } from '@slack/bolt';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** A logger whose lines carry these fields too. */
  child(fields: Record<string, unknown>): Logger;
  /** Mask this value wherever it appears from now on (a password the bot just handled). */
  addSecret(secret: string): void;
  /** Whether a line at this level would be written (so callers can skip building it). */
  isEnabled(level: LogLevel): boolean;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Known secrets (tokens, signing secret): masked wherever they appear. */
  secrets?: (string | undefined)[];
  /** Where lines go; default stdout. */
  sink?: (line: string) => void;
  now?: () => number;
  /** Fields of the request in force (its trace_id and span_id when tracing is on), added to each line written. */
  context?: () => Record<string, unknown> | undefined;
}

const MASK = '[redacted]';
/** The fields of a Slack payload that are credentials: a response_url posts as the bot for 30 minutes, a trigger opens its forms. */
const GRANTS = 'response_url|trigger_id|interactivity_pointer';
/** Slack tokens, bearer headers, password-like JSON/query fields, response_urls and trigger ids. */
const PATTERNS: [RegExp, string][] = [
  [/xox[abpers]-[0-9A-Za-z-]+/g, MASK],
  [/xapp-[0-9A-Za-z-]+/g, MASK],
  [/(bearer\s+)[^\s"',]+/gi, `$1${MASK}`],
  [/("(?:password|root_password|token|secret|authorization)"\s*:\s*")((?:[^"\\]|\\.)*)(")/gi, `$1${MASK}$3`],
  [/((?:password|token)=)[^&\s"]+/gi, `$1${MASK}`],
  // A response_url wherever it appears (hooks.slack.com/commands|actions|app|workflows/…), its host kept.
  [/(https?:\/\/hooks\.slack(?:-gov)?\.com\/)[^\s"'\\<>|]+/gi, `$1${MASK}`],
  // The payload's fields, in a field or in a JSON text quoted in one (escaped once), and as form fields.
  [new RegExp(`("(?:${GRANTS})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)(")`, 'gi'), `$1${MASK}$3`],
  [new RegExp(`(\\\\"(?:${GRANTS})\\\\"\\s*:\\s*\\\\")(.*?)(\\\\")`, 'gi'), `$1${MASK}$3`],
  [new RegExp(`((?:${GRANTS})=)[^&\\s"]+`, 'gi'), `$1${MASK}`],
  // A trigger id on its own (`13345224609.738474920.8088930838d88f008e0`).
  [/\b\d{5,}\.\d{5,}\.[0-9a-f]{16,}\b/g, MASK],
];

export function createLogger(opts: LoggerOptions = {}, base: Record<string, unknown> = {}, shared?: Set<string>): Logger {
  const min = ORDER[opts.level ?? 'info'];
  const secrets = shared ?? new Set((opts.secrets ?? []).filter((s): s is string => !!s && s.length >= 4));
  const sink = opts.sink ?? ((line: string) => process.stdout.write(line + '\n'));
  const now = opts.now ?? Date.now;

  const forms = new Map<string, string[]>();
  const redact = (text: string): string => {
    let out = text;
    for (const s of secrets) {
      let written = forms.get(s);
      if (!written) forms.set(s, (written = writtenForms(s)));
      for (const form of written) out = out.split(form).join(MASK);
    }
    for (const [re, repl] of PATTERNS) out = out.replace(re, repl);
    return out;
  };

  const write = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    const entry = { time: new Date(now()).toISOString(), level, msg, ...base, ...opts.context?.(), ...fields };
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
      if (s && s.length >= 4) secrets.add(s);
    },
  };
}

/**
 * How a secret can appear in a written line: the line is JSON, so a quote, a backslash or a
 * control character in it is escaped once (a field), or twice (a JSON text quoted in a field or
 * a message, as Bolt's lines are); the most escaped form is cut first.
 */
function writtenForms(secret: string): string[] {
  const once = JSON.stringify(secret).slice(1, -1);
  if (once === secret) return [secret];
  return [JSON.stringify(once).slice(1, -1), once, secret];
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const e = value as Error & { code?: unknown; status?: unknown };
    return { name: e.name, message: e.message, ...(e.code !== undefined ? { code: e.code } : {}), ...(e.status !== undefined ? { status: e.status } : {}) };
  }
  return value;
}

/**
 * The Socket Mode client logs every message it receives or sends whole, at debug. A form's
 * submission holds what the person typed (a reinstall's root password) before the bot knows it
 * is a secret, so no redaction can catch it: such a line keeps its words and the envelope's
 * type and id, never the payload.
 */
const RAW_SOCKET_MESSAGE = /^(Received a message on the WebSocket|Sending a WebSocket message|Unable to parse an incoming WebSocket message \(will ignore\)): ([\s\S]*)$/;

function withoutSocketPayload(line: string): string {
  const m = RAW_SOCKET_MESSAGE.exec(line);
  if (!m) return line;
  let envelope: { type?: unknown; envelope_id?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(m[2]!);
    if (parsed !== null && typeof parsed === 'object') envelope = parsed as typeof envelope;
  } catch {
    // unreadable: nothing of it is shown
  }
  const said = [typeof envelope.type === 'string' ? `type ${envelope.type}` : '', typeof envelope.envelope_id === 'string' ? `envelope ${envelope.envelope_id}` : ''].filter(Boolean);
  return `${m[1]} (${[...said, 'payload not logged'].join(', ')})`;
}

/** Bolt wants a @slack/logger-shaped object; route it through ours so redaction applies. */
export function boltLogger(log: Logger): BoltLogger {
  const join = (args: unknown[]) => withoutSocketPayload(args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? a.message : JSON.stringify(a))).join(' '));
  let level = BoltLogLevel.INFO;
  // Bolt's Web API client logs every request body at debug level: build the line only when it
  // will be written, or each call pays for stringifying a payload nobody reads.
  const at = (level: LogLevel) => (...a: unknown[]) => {
    if (log.isEnabled(level)) log[level](join(a), { source: 'bolt' });
  };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    setLevel: (l: BoltLogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
