/**
 * `npm run sandbox`: serves the seeded sandbox on 127.0.0.1:SANDBOX_PORT (default 8787) and
 * prints how to point the bot at it.
 */
import { loadSandboxConfig } from '../config.js';
import { createSandbox } from './index.js';

const config = loadSandboxConfig();
const sandbox = createSandbox(config.token === undefined ? {} : { token: config.token });
const server = await sandbox.listen(config.port, '127.0.0.1').catch((e: unknown) => {
  // A busy port is a setup matter, not a crash: name the port and what changes it, no stack.
  const code = (e as { code?: unknown }).code;
  if (code !== 'EADDRINUSE' && code !== 'EACCES') throw e;
  const why = code === 'EADDRINUSE' ? 'is already in use (another sandbox still running?)' : 'may not be opened by this user';
  console.error(`Port ${config.port} on 127.0.0.1 ${why}. Set SANDBOX_PORT to another port, e.g. SANDBOX_PORT=${config.port < 65535 ? config.port + 1 : 8788} npm run sandbox.`);
  process.exit(1);
});

console.log(`Cloud API v2 sandbox listening on ${server.baseUrl}`);
console.log(`Bearer token: ${sandbox.token}`);
console.log(`export CLOUD_API_BASE_URL=${server.baseUrl} CLOUD_API_TOKEN=${sandbox.token}`);
console.log('Control endpoints: POST/DELETE /__sandbox/faults, POST /__sandbox/latency, POST /__sandbox/sync-failures, PATCH /__sandbox/account, GET /__sandbox/requests');

let closing = false;
const stop = (signal: string) => {
  if (closing) return;
  closing = true;
  console.log(`\n${signal}: closing sandbox`);
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
