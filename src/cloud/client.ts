/**
 * Assembles the Cloud API v2 client: one transport, one small module per resource group.
 * Options come as arguments (config.ts is the only reader of the environment).
 */
import type { CloudClient } from './cloud-client.js';
import { createTransport } from './http.js';
import { guardGroup } from './redaction.js';
import type { Transport, TransportOptions } from './http.js';
import { createAccount } from './resources/account.js';
import { createBackups } from './resources/backups.js';
import { createPlans } from './resources/plans.js';
import { createReservedIps } from './resources/reserved-ips.js';
import { createSecurityGroups } from './resources/security-groups.js';
import { createServers } from './resources/servers.js';
import { createSshKeys } from './resources/ssh-keys.js';
import { createWorkers } from './resources/workers.js';

export type CloudClientOptions = TransportOptions;

export interface ClosableCloudClient extends CloudClient {
  /** Closes the client's own connection pool; an injected dispatcher is left open. */
  close(): Promise<void>;
}

/** The resource groups over any transport (the recorder of recorder.ts uses one that never sends). */
export function assembleClient(transport: Transport, guard: <G extends object>(group: G) => G = (g) => g): CloudClient {
  return {
    reservedIps: guard(createReservedIps(transport)),
    workers: guard(createWorkers(transport)),
    servers: guard(createServers(transport)),
    backups: guard(createBackups(transport)),
    securityGroups: guard(createSecurityGroups(transport)),
    sshKeys: guard(createSshKeys(transport)),
    plans: guard(createPlans(transport)),
    account: guard(createAccount(transport)),
  };
}

export function createCloudClient(options: CloudClientOptions): ClosableCloudClient {
  const transport = createTransport(options);
  const client = assembleClient(transport, (group) => guardGroup(group, options.token));
  return { ...client, close: () => transport.close() };
}
