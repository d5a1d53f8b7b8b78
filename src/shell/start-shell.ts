/**
 * Composition for the local shell: the cloud (the built-in sandbox, in-process on loopback
 * with demo-friendly lifecycles, unless CLOUD_API_BASE_URL names one — or, with ACCESS_POLICY,
 * the file's accounts, each `sandbox` one on a sandbox of its own), the local Web API, the
 * shell receiver, and the very same runtime src/main.ts runs for Slack (src/runtime.ts). One
 * line at start says where it runs; Ctrl-D ends it and closes everything it opened.
 */
import type { Readable, Writable } from 'node:stream';
import { readPolicyFile, type PolicyFile } from '../access/policy-file.js';
import { envIsSet, envToken, type AccessConfig, type ShellConfig } from '../config.js';
import { createRuntime } from '../runtime.js';
import { createSandbox, seedNames, seedSummary, type Sandbox, type SandboxOptions } from '../sandbox/index.js';
import { SHELL_BOT_TOKEN, SHELL_CHANNEL, SHELL_USER } from './identity.js';
import { startLocalSlack, type LocalSlack } from './local-slack.js';
import { startSandboxAccounts, type SandboxAccounts } from './sandbox-accounts.js';
import { catalog } from '../operations/index.js';
import { answerChecker } from './field-check.js';
import { createShell } from './shell.js';
import { shellChannels } from './shell-channels.js';
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
  // `/cloud policy` names this, not CLOUD_ADMINS: the shell reads no role list from the environment.
  rolesFrom: 'the local shell, which makes its one person an admin',
};

export interface StartShellOptions {
  config: ShellConfig;
  input: Readable;
  output: Writable;
  /** Default: whether both streams are a terminal. */
  terminal?: boolean;
  /** ANSI styles. Default: whether the output is a terminal (piped input still reads in colour). */
  ansi?: boolean;
  /** Overrides for the built-in sandbox (tests shorten lifecycles further). */
  sandbox?: SandboxOptions;
  /** Overrides for watches (tests poll faster than WATCH_INTERVAL_MS allows). */
  watch?: { intervalMs?: number };
}

export interface RunningShell {
  /** The built-in sandbox, when the shell runs on it (with a policy file: its default account's). */
  sandbox: Sandbox | undefined;
  /** Each `base_url: sandbox` account's own sandbox, by account name. */
  sandboxes: Record<string, Sandbox>;
  /** Where the default account's requests go. */
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

/** `prod (sandbox at http://…), staging (default, sandbox at …)`: each account and where it runs. */
function accountsText(accounts: Record<string, { name: string; baseUrl: string }>, sandboxes: Record<string, Sandbox>, defaultAccount: string): string {
  return Object.values(accounts)
    .map((a) => `${a.name} (${a.name === defaultAccount ? 'default, ' : ''}${sandboxes[a.name] ? 'sandbox' : 'cloud'} at ${a.baseUrl})`)
    .join(', ');
}

const isTty = (s: Readable | Writable) => (s as { isTTY?: boolean }).isTTY === true;

export async function startShell(opts: StartShellOptions): Promise<RunningShell> {
  const { config } = opts;
  const closers: (() => Promise<void> | void)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close();
  };
  try {
    const sandboxOptions = { ...DEMO_SANDBOX, ...opts.sandbox };
    // A bad file throws its one PolicyFileError here, before anything is started.
    const policyPath = config.access.policyFile;
    const file = policyPath ? readPolicyFile(policyPath, { hasEnv: (name) => envIsSet(name), allowSandbox: true }) : undefined;
    let named: SandboxAccounts | undefined;
    if (file?.accounts) {
      named = await startSandboxAccounts(file, sandboxOptions, (name) => envToken(name));
      closers.push(named.close);
    }
    let sandbox: Sandbox | undefined;
    let cloudTarget = config.cloud;
    // The environment's account is only needed when the file declares none.
    if (!cloudTarget && !named) {
      sandbox = createSandbox(sandboxOptions);
      const listening = await sandbox.listen(0, '127.0.0.1');
      closers.push(() => listening.close());
      cloudTarget = { baseUrl: listening.baseUrl, token: sandbox.token };
    }
    const local = await startLocalSlack({ token: SHELL_BOT_TOKEN, home: SHELL_CHANNEL.id });
    closers.push(() => local.close());

    const terminal = opts.terminal ?? (isTty(opts.input) && isTty(opts.output));
    let print: (text: string) => void = (text) => void opts.output.write(`${text}\n`);
    let log = print;
    const receiver = new ShellReceiver((error) => print(`! ${error instanceof Error ? error.message : String(error)}`));
    const policy: PolicyFile | undefined = named?.file ?? file;
    const runtime = createRuntime(
      {
        slack: { mode: 'shell', botToken: SHELL_BOT_TOKEN, appToken: undefined, signingSecret: undefined, port: 0, apiUrl: local.apiUrl },
        cloud: cloudTarget,
        databasePath: config.databasePath,
        database: config.database,
        // The shell's one person stays an admin; the file adds its accounts and channel rules.
        // No reloadPolicy: the sandboxes were started for the file as it was read.
        access: { config: { ...SHELL_ACCESS, policyFile: policyPath }, ...(policy && policyPath ? { policy, policyPath } : {}) },
        tokens: named?.tokens ?? ((name) => envToken(name)),
        auditChannel: config.auditChannel,
        watch: { ...config.watch, ...opts.watch },
        monitor: config.monitor,
        unfurl: config.unfurl,
        schedule: config.schedule,
        log: { level: config.logLevel, sink: (line) => log(logLineText(line)) },
      },
      // A step waiting on a click or a watch is looked at every 2 s here, so its end shows soon.
      { receiver, stepCheckMs: 2000 },
    );
    receiver.waitAlsoFor(() => runtime.settled());
    const channels = shellChannels(runtime.policy.current());
    const shell = createShell({ input: opts.input, output: opts.output, terminal, ansi: opts.ansi ?? isTty(opts.output), receiver, slack: local, channels, checkAnswer: answerChecker(catalog) });
    print = shell.print;
    log = shell.log;
    try {
      await runtime.start();
    } catch (e) {
      await runtime.stop();
      throw e;
    }
    closers.push(() => runtime.stop()); // first to close: the watcher finishes its poll in flight

    const current = runtime.policy.current();
    const sandboxes = Object.fromEntries((named?.sandboxes ?? []).map((s) => [s.name, s.sandbox]));
    // The banner names what the sandbox seeds, so those names work from the first command: the
    // known-resources store learns them, marked as the sandbox seed's (`/cloud server known`).
    if (sandboxOptions.seed !== false) {
      const seeded = (sandbox ? [current.defaultAccount] : []).concat(Object.keys(sandboxes));
      const entries = seedNames().map((e) => ({ ...e, field: 'seed' as const }));
      for (const account of seeded) await runtime.store.known.remember(account, entries, Date.now());
    }
    const where = named
      ? `accounts: ${accountsText(current.accounts, sandboxes, current.defaultAccount)}`
      : `${sandbox ? 'sandbox cloud' : 'cloud'} at ${cloudTarget!.baseUrl}`;
    const hint = channels.length > 1 ? ' channel lists the channels and switches between them;' : '';
    const banner = `cloudbot shell — ${where} (not Slack). Type /cloud help;${hint} Ctrl-D quits. To connect to Slack, see README › Connect to Slack.`
      // The API lists no servers, groups or workers: name the seeded ones so they can be found.
      + (sandbox || Object.keys(sandboxes).length > 0 ? `\n${seedSummary()}` : '');
    shell.print(banner);
    const closed = shell.run().then(async () => {
      // Piped input that ends mid-build: say the watches stop here, rather than end silently.
      const open = (await runtime.store.watches.listOpen().catch(() => [])).length;
      if (open) shell.print(`Input ended while ${open} watch${open === 1 ? ' was' : 'es were'} still running; they stop with the shell.`);
    }).then(closeAll);
    return {
      sandbox: sandbox ?? sandboxes[current.defaultAccount],
      sandboxes,
      cloudUrl: current.accounts[current.defaultAccount]?.baseUrl ?? cloudTarget!.baseUrl,
      slack: local,
      banner,
      closed,
      stop: () => shell.close(),
    };
  } catch (e) {
    await closeAll();
    throw e;
  }
}
