/**
 * Composition for the local shell: the cloud (the built-in sandbox, in-process on loopback
 * with demo-friendly lifecycles, unless CLOUD_API_BASE_URL names one), the local Web API,
 * the shell receiver, and the very same runtime src/main.ts runs for Slack (src/runtime.ts). One line
 * at start says where it runs; Ctrl-D ends it and closes everything it opened.
 */
import type { Readable, Writable } from 'node:stream';
import type { AccessConfig, ShellConfig } from '../config.js';
import { createRuntime } from '../runtime.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../sandbox/index.js';
import { SHELL_BOT_TOKEN, SHELL_CHANNEL, SHELL_USER } from './identity.js';
import { startLocalSlack, type LocalSlack } from './local-slack.js';
import { createShell } from './shell.js';
import { ShellReceiver } from './shell-receiver.js';

/** Lifecycles short enough to watch a build or a reinstall end while trying the bot out. */
export const DEMO_SANDBOX: SandboxOptions = { buildMs: 20_000, reinstallMs: 15_000 };

/** The one person of the shell is an admin; Slack's role and channel lists name Slack's people. */
export const SHELL_ACCESS: AccessConfig = {
  admins: [SHELL_USER.id],
  operators: [],
  viewers: undefined,
  channels: undefined,
  policyFile: undefined,
  approval: undefined,
};

export interface StartShellOptions {
  config: ShellConfig;
  input: Readable;
  output: Writable;
  /** Default: whether both streams are a terminal. */
  terminal?: boolean;
  /** Overrides for the built-in sandbox (tests shorten lifecycles further). */
  sandbox?: SandboxOptions;
  /** Overrides for watches (tests poll faster than WATCH_INTERVAL_MS allows). */
  watch?: { intervalMs?: number };
}

export interface RunningShell {
  /** The built-in sandbox, when the shell runs on it. */
  sandbox: Sandbox | undefined;
  cloudUrl: string;
  /** The local Web API and what it was told (messages, ephemerals, views). */
  slack: LocalSlack;
  banner: string;
  /** Resolves once the shell has ended and everything it opened is closed. */
  closed: Promise<void>;
  /** Ends the shell as Ctrl-D does. */
  stop(): void;
}

/** A JSON log line as one readable line in the shell. */
export function logLineText(line: string): string {
  try {
    const { time: _t, level, msg, ...fields } = JSON.parse(line) as Record<string, unknown>;
    const error = fields.error as { message?: string } | undefined;
    return `[${String(level)}] ${String(msg)}${error?.message ? `: ${error.message}` : ''}`;
  } catch {
    return line;
  }
}

const isTty = (s: Readable | Writable) => (s as { isTTY?: boolean }).isTTY === true;

export async function startShell(opts: StartShellOptions): Promise<RunningShell> {
  const { config } = opts;
  const closers: (() => Promise<void> | void)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close();
  };
  try {
    let sandbox: Sandbox | undefined;
    let cloudTarget = config.cloud;
    if (!cloudTarget) {
      sandbox = createSandbox({ ...DEMO_SANDBOX, ...opts.sandbox });
      const listening = await sandbox.listen(0, '127.0.0.1');
      closers.push(() => listening.close());
      cloudTarget = { baseUrl: listening.baseUrl, token: sandbox.token };
    }
    const local = await startLocalSlack({ token: SHELL_BOT_TOKEN, home: SHELL_CHANNEL.id });
    closers.push(() => local.close());

    const terminal = opts.terminal ?? (isTty(opts.input) && isTty(opts.output));
    let print: (text: string) => void = (text) => void opts.output.write(`${text}\n`);
    const receiver = new ShellReceiver((error) => print(`! ${error instanceof Error ? error.message : String(error)}`));
    const shell = createShell({ input: opts.input, output: opts.output, terminal, receiver, slack: local });
    print = shell.print;
    const runtime = createRuntime(
      {
        slack: { mode: 'shell', botToken: SHELL_BOT_TOKEN, appToken: undefined, signingSecret: undefined, port: 0, apiUrl: local.apiUrl },
        cloud: cloudTarget,
        databasePath: config.databasePath,
        database: config.database,
        access: { config: SHELL_ACCESS },
        auditChannel: config.auditChannel,
        watch: { ...config.watch, ...opts.watch },
        log: { level: config.logLevel, sink: (line) => shell.print(logLineText(line)) },
      },
      { receiver },
    );
    try {
      await runtime.start();
    } catch (e) {
      await runtime.stop();
      throw e;
    }
    closers.push(() => runtime.stop()); // first to close: the watcher finishes its poll in flight

    const where = sandbox ? `sandbox cloud at ${cloudTarget.baseUrl}` : `cloud at ${cloudTarget.baseUrl}`;
    const banner = `cloudbot shell — ${where} (not Slack). Type /cloud help; Ctrl-D quits. To connect to Slack, see README › Connect to Slack.`;
    shell.print(banner);
    const closed = shell.run().then(closeAll);
    return { sandbox, cloudUrl: cloudTarget.baseUrl, slack: local, banner, closed, stop: () => shell.close() };
  } catch (e) {
    await closeAll();
    throw e;
  }
}
