/**
 * Assembles the Cloud API v2 client: one transport, the methods the endpoint table declares.
 * Options come as arguments (config.ts is the only reader of the environment).
 */
import type { CloudClient } from './cloud-client.js';
import { clientFrom } from './define-endpoints.js';
import { ENDPOINTS } from './endpoints.js';
import { createTransport } from './http.js';
import { guardGroup } from './redaction.js';
import type { Transport, TransportOptions } from './http.js';

export type CloudClientOptions = TransportOptions;

export interface ClosableCloudClient extends CloudClient {
  /** Closes the client's own connection pool; an injected dispatcher is left open. */
  close(): Promise<void>;
}

/** The resource groups over any transport (the recorder of recorder.ts uses one that never sends). */
export function assembleClient(transport: Transport, guard: <G extends object>(group: G) => G = (g) => g): CloudClient {
  return clientFrom(ENDPOINTS, transport, guard);
}

export function createCloudClient(options: CloudClientOptions): ClosableCloudClient {
  const transport = createTransport(options);
  const client = assembleClient(transport, (group) => guardGroup(group, options.token));
  return { ...client, close: () => transport.close() };
}
