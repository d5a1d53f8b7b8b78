/** Shared fixtures for the audit tests: entries, a captured logger, a recording Slack. */
import type { AuditEntry, NewAuditEntry } from '../../src/domain/audit-entry.js';
import { createLogger, type Logger, type LogLevel } from '../../src/log.js';
import type { MessageArgs, SlackApi } from '../../src/chat/slack-api.js';

export const T0 = Date.parse('2026-11-22T12:00:00Z');

export function newEntry(over: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return {
    userId: 'U_ALICE',
    channelId: 'C_OPS',
    opId: 'server.reinstall',
    tier: 'destroy',
    args: { server: 'srv-123', image: 'ubuntu-24.04' },
    outcome: 'succeeded',
    ...over,
  };
}

export function fullEntry(over: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 1,
    at: T0,
    userId: 'U_ALICE',
    channelId: 'C_OPS',
    opId: 'server.reinstall',
    tier: 'destroy',
    args: { server: 'srv-123', image: 'ubuntu-24.04' },
    outcome: 'succeeded',
    errorCode: null,
    confirmedBy: null,
    approvedBy: null,
    operationId: null,
    durationMs: null,
    detail: null,
    account: null,
    ...over,
  };
}

export interface LogLine {
  level: LogLevel;
  msg: string;
  [key: string]: unknown;
}

/** A real logger (with its redaction) whose lines are kept, parsed. */
export function capturedLogger(level: LogLevel = 'info'): { logger: Logger; lines: LogLine[]; raw: string[] } {
  const raw: string[] = [];
  const logger = createLogger({ level, sink: (l) => raw.push(l), now: () => T0 });
  return {
    logger,
    raw,
    get lines() {
      return raw.map((l) => JSON.parse(l) as LogLine);
    },
  };
}

export interface RecordingSlack extends Pick<SlackApi, 'postMessage'> {
  posts: MessageArgs[];
  /** Calls made, including failed ones. */
  calls: number;
  /** What the next calls do: answer, fail with this error, or never answer. */
  mode: 'ok' | Error | 'hang';
}

export function recordingSlack(): RecordingSlack {
  const slack: RecordingSlack = {
    posts: [],
    calls: 0,
    mode: 'ok',
    async postMessage(args) {
      slack.calls++;
      const mode = slack.mode;
      if (mode === 'hang') return new Promise<never>(() => {});
      if (mode instanceof Error) throw mode;
      slack.posts.push(args);
      return { channel: args.channel, ts: `1700000000.${String(slack.posts.length).padStart(6, '0')}` };
    },
  };
  return slack;
}
