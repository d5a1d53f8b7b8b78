/**
 * Composition root: config → dependencies → mode (socket | http | shell) → start. Stops
 * cleanly on SIGTERM and SIGINT (finish what is in flight, close connections). With no Slack
 * variables at all, `npm start` is the local shell against the built-in sandbox.
 */
import { Agent } from 'undici';
import { createCloudClient } from './cloud/client.js';
import { systemClock } from './clock.js';
import { ConfigError, isShellConfig, loadBotConfig, loadDotEnv, type ShellConfig } from './config.js';
import { createLogger } from './log.js';
import { catalog } from './operations/index.js';
import { createBot } from './slack/app.js';
import { PolicyFileError, readPolicyFile } from './access/policy-file.js';
import { createSealer, createSqliteStore } from './store/index.js';
import { startShell } from './shell/start-shell.js';

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
  const logger = createLogger({
    level: config.logLevel,
    secrets: [slack.botToken, slack.appToken, slack.signingSecret, cloudConfig.token],
  });
  // One connection pool for both clients; the watcher's requests name themselves in the provider's logs.
  const pool = new Agent({ connect: { timeout: 5000 }, headersTimeout: 20_000, bodyTimeout: 20_000 });
  const clientOptions = { baseUrl: cloudConfig.baseUrl, token: cloudConfig.token, clock: systemClock, dispatcher: pool };
  const cloud = createCloudClient(clientOptions);
  const watchCloud = createCloudClient({ ...clientOptions, userAgent: 'cloudbot/0.1 (watcher)' });
  let policy;
  try {
    policy = config.access.policyFile ? readPolicyFile(config.access.policyFile) : undefined;
  } catch (e) {
    if (e instanceof PolicyFileError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const store = createSqliteStore({ path: config.databasePath, clock: systemClock });
  // Sealed secrets live minutes (a pending reinstall's password); the key comes from the bot's
  // own credentials, so a copied database file alone does not open them.
  const sealer = createSealer([slack.botToken, cloudConfig.token]);
  const bot = createBot({
    slack,
    cloud,
    watchCloud,
    clock: systemClock,
    logger,
    catalog,
    operations: store.operations,
    watches: store.watches,
    sealer,
    watch: config.watch,
    access: { config: config.access, ...(policy ? { policy } : {}) },
    audit: { store: store.audit, ...(config.auditChannel ? { channel: config.auditChannel } : {}) },
  });
  if (bot.access.unconfigured) {
    logger.warn(
      'No roles are configured, so everyone is a viewer (reads only). Grant more with CLOUD_ADMINS and CLOUD_OPERATORS (Slack user or user group ids), or ACCESS_POLICY for per-channel roles.',
    );
  }
  const { port } = await bot.start();
  logger.info(
    slack.mode === 'http' ? `cloudbot listening for Slack on :${port}/slack/events` : 'cloudbot connected to Slack in Socket Mode',
    { mode: slack.mode, cloud: new URL(cloudConfig.baseUrl).host },
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await bot.stop(); // finishes the watch poll in flight
      await pool.close();
      await store.close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** The local shell on this terminal; exits 0 once it has closed everything (Ctrl-D, `exit`, a signal). */
async function runShell(config: ShellConfig): Promise<void> {
  const shell = await startShell({ config, input: process.stdin, output: process.stdout });
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
