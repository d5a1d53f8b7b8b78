/**
 * The local shell with in-memory streams: a PassThrough as the keyboard, the output collected.
 * The sandbox's lifecycles and the watch interval are short, so a build or a reinstall ends
 * in about a second; waiting is a bounded poll on the output, never a sleep.
 */
import { PassThrough } from 'node:stream';
import { loadBotConfig, type ShellConfig } from '../../src/config.js';
import { startShell, type RunningShell } from '../../src/shell/start-shell.js';
import { waitFor } from '../rig/wait-for.js';

export interface ShellHarness {
  shell: RunningShell;
  /** Types one line (Enter included). */
  type(line: string): void;
  /** Everything printed so far. */
  output(): string;
  /** Where the output ends now: pass to `waitFor`/`since` to look only at what comes next. */
  mark(): number;
  since(mark: number): string;
  /** Waits until the output after `from` matches; returns the match. */
  waitFor(pattern: RegExp, from?: number, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Ctrl-D: ends input; resolves once the shell has closed everything. */
  end(): Promise<void>;
}

export async function startShellHarness(env: Record<string, string> = {}): Promise<ShellHarness> {
  const input = new PassThrough();
  const output = new PassThrough();
  let out = '';
  output.on('data', (d) => (out += String(d)));
  const config = loadBotConfig(env) as ShellConfig;
  const shell = await startShell({
    config,
    input,
    output,
    terminal: false,
    sandbox: { buildMs: 1500, reinstallMs: 1000 },
    watch: { intervalMs: 150 },
  });
  return {
    shell,
    type: (line) => void input.write(`${line}\n`),
    output: () => out,
    mark: () => out.length,
    since: (mark) => out.slice(mark),
    waitFor: (pattern, from = 0, timeoutMs = 8000) =>
      waitFor(() => pattern.exec(out.slice(from)) ?? undefined, { timeoutMs, intervalMs: 20, message: `output never matched ${pattern}:\n${out.slice(from)}` }),
    async end() {
      input.end();
      await shell.closed;
    },
  };
}
