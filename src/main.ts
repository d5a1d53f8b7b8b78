/**
 * Entry point: config → mode (socket | http | shell) → the runtime (src/runtime.ts) → start. Stops
 * cleanly on SIGTERM and SIGINT (finish what is in flight, close connections). With no Slack
 * variables at all, `npm start` is the local shell against the built-in sandbox.
 */
import { ConfigError, envIsSet, envToken, isShellConfig, loadBotConfig, loadDotEnv, type ShellConfig } from './config.js';
import { PolicyFileError, readPolicyFile } from './access/policy-file.js';
import { createRuntime } from './runtime.js';
import { SlackUnreachableError } from './slack/wait-for-slack.js';

/** Beyond SHUTDOWN_TIMEOUT_MS: a watch poll in flight (cloud timeouts), closing the pool and the store. */
const FORCE_EXIT_MARGIN_MS = 10_000;

async function main(): Promise<void> {
  loadDotEnv();
  let config;
  try {
    config = loadBotConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  if (isShellConfig(config)) return runShell(config);
  const { slack, cloud: cloudConfig } = config;
  const policyPath = config.access.policyFile;
  const readPolicy = () => readPolicyFile(policyPath!, { hasEnv: (name) => envIsSet(name) });
  let runtime;
  try {
    runtime = createRuntime({
      slack,
      cloud: cloudConfig,
      databasePath: config.databasePath,
      database: config.database,
      access: {
        config: config.access,
        ...(policyPath ? { policy: readPolicy(), policyPath, reloadPolicy: readPolicy } : {}),
      },
      tokens: (name) => envToken(name),
      auditChannel: config.auditChannel,
      watch: config.watch,
      monitor: config.monitor,
      unfurl: config.unfurl,
      schedule: config.schedule,
      log: { level: config.logLevel },
      telemetry: config.telemetry,
      shutdownTimeoutMs: config.shutdownTimeoutMs,
      shutdownDelayMs: config.shutdownDelayMs,
    });
  } catch (e) {
    // One message naming every problem of the file; nothing starts.
    if (e instanceof PolicyFileError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const { logger } = runtime;
  // Policy as code: SIGHUP reads the file again; a bad file is refused and the old policy stays.
  process.on('SIGHUP', () => {
    runtime.reloadPolicy('signal').catch((error: unknown) => logger.error('policy reload failed', { error }));
  });

  // Signals are heard from the start: a bot still waiting for Slack stops at once.
  let stopping = false;
  const stop = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    if (signal) logger.info('shutting down', { signal, boundMs: config.shutdownTimeoutMs });
    // runtime.stop bounds the work in flight by SHUTDOWN_TIMEOUT_MS; this bounds everything else
    // (a watch poll in flight, closing connections) so a stuck stop still ends.
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting with work unfinished', { boundMs: config.shutdownTimeoutMs });
      process.exit(1);
    }, Math.max(config.shutdownTimeoutMs, config.shutdownDelayMs) + FORCE_EXIT_MARGIN_MS);
    force.unref();
    try {
      await runtime.stop(); // readyz 503, new requests told "restarting", leases released, work in flight finished, store closed
    } finally {
      clearTimeout(force);
      process.exit(code);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // A fault nothing caught: one JSON line through the log (masked, like every line) and the same
  // bounded stop as SIGTERM — leases released, so another replica takes the watches over at once —
  // then exit 1. Node's default would print a raw stack to stderr and drop everything in flight.
  // Nothing resumes after it (https://nodejs.org/api/process.html#warning-using-uncaughtexception-correctly).
  process.on('uncaughtException', (error) => {
    logger.error('uncaught exception; stopping', { error });
    void stop('uncaughtException', 1);
  });
  process.on('unhandledRejection', (reason) => {
    logger.error('unhandled promise rejection; stopping', { error: reason });
    void stop('unhandledRejection', 1);
  });

  let port: number | undefined;
  try {
    ({ port } = await runtime.start());
  } catch (e) {
    if (stopping) return; // stopped while waiting for Slack
    if (e instanceof SlackUnreachableError) {
      logger.error(e.message);
      return void stop('', 1);
    }
    throw e;
  }
  logger.info(
    slack.mode === 'http' ? `cloudbot listening for Slack on :${port}/slack/events` : 'cloudbot connected to Slack in Socket Mode',
    { mode: slack.mode, accounts: runtime.accounts.names() },
  );
}

/** The local shell on this terminal; exits 0 once it has closed everything (Ctrl-D, `exit`, a signal). */
async function runShell(config: ShellConfig): Promise<void> {
  // Loaded here, not at the top: a bot serving Slack never carries the shell and its sandbox.
  const { startShell } = await import('./shell/start-shell.js');
  let shell;
  try {
    shell = await startShell({ config, input: process.stdin, output: process.stdout });
  } catch (e) {
    // As in Slack modes: the file's one message, and nothing starts.
    if (e instanceof PolicyFileError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  process.on('SIGTERM', () => shell.stop());
  process.on('SIGINT', () => shell.stop());
  await shell.closed;
  process.exitCode = 0;
  // Nothing should be left open; if something is, do not hang the terminal over it.
  setTimeout(() => process.exit(0), 2000).unref();
}

main().catch((e: unknown) => {
  process.stderr.write(`cloudbot failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
