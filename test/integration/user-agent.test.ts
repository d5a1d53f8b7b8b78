import { expect, it } from 'vitest';
import { createCloudClient } from '../../src/cloud/client.js';
import { createSandbox } from '../../src/sandbox/index.js';

it('names itself to the cloud: a default User-Agent, or the one given (the watcher’s)', async () => {
  const sandbox = createSandbox();
  const server = await sandbox.listen();
  const plain = createCloudClient({ baseUrl: server.baseUrl, token: sandbox.token });
  const watcher = createCloudClient({ baseUrl: server.baseUrl, token: sandbox.token, userAgent: 'cloudbot/0.1 (watcher)' });
  await plain.account.usage();
  await watcher.account.usage();
  expect(sandbox.requests.map((r) => r.userAgent)).toEqual(['cloudbot/0.1 (+undici)', 'cloudbot/0.1 (watcher)']);
  await plain.close();
  await watcher.close();
  await server.close();
});
