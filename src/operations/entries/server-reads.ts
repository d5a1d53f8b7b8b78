/** Reads of one server: live status, credentials (a secret), addresses. */
import { buildCredentials, buildServerIps, buildServerStatus } from '../../views/server-views.js';
import { serverArg } from '../args.js';
import { defineOperation, pageFlag, switchFlag, defineRead } from '../define.js';
import { serverFromIps, serverFromStatus, serverSeen } from '../remember.js';

export const serverStatus = defineRead({
  id: 'server.status',
  summary: 'Live power state and application status (installing, reinstalling…) of a server',
  args: { server: serverArg, watch: switchFlag('follow it in the channel until an install is done') },
  watchable: ({ server }) => ({ kind: 'server', resource: server }),
  run: ({ cloud, signal }, { server }) => cloud.servers.status(server, { signal }),
  remember: (status, { server }) => serverFromStatus(server, status),
  render: (status, { server }, view) => buildServerStatus(server, status, view),
});

export const serverCredentials = defineOperation({
  id: 'server.credentials',
  summary: 'Root login of a server — shown only to you, never in the channel',
  tier: 'secret',
  args: { server: serverArg },
  run: ({ cloud, signal }, { server }) => cloud.servers.credentials(server, { signal }),
  remember: (_creds, { server }) => serverSeen(server), // the id only: nothing of the secret answer
  render: (creds, { server }) => buildCredentials(server, creds),
});

export const serverIps = defineRead({
  id: 'server.ips',
  summary: 'Every IPv4 and IPv6 address of a server, reserved ones marked',
  args: { server: serverArg, page: pageFlag },
  pageArg: 'page',
  run: ({ cloud, signal }, { server }) => cloud.servers.ips(server, { signal }),
  remember: (ips, { server }) => serverFromIps(server, ips),
  render: (ips, { server }, view) => buildServerIps(server, ips, view.pages),
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const SERVER_READS = [serverStatus, serverCredentials, serverIps];
