/** A Bolt/WebClient logger that keeps every line in memory (quiet output, assertable). */
import { LogLevel, type Logger } from '@slack/bolt';

export interface RecordingLogger extends Logger {
  lines: Array<{ level: LogLevel; text: string }>;
}

export function recordingLogger(): RecordingLogger {
  const lines: RecordingLogger['lines'] = [];
  const at = (level: LogLevel) => (...msg: unknown[]) => void lines.push({ level, text: msg.map(String).join(' ') });
  return {
    lines,
    debug: at(LogLevel.DEBUG),
    info: at(LogLevel.INFO),
    warn: at(LogLevel.WARN),
    error: at(LogLevel.ERROR),
    setLevel: () => {},
    getLevel: () => LogLevel.DEBUG,
    setName: () => {},
  };
}
