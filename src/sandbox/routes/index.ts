/** Every /v2 route, by resource. */
import type { Route } from '../router.js';
import { accountRoutes } from './account.js';
import { backupRoutes } from './backups.js';
import { planRoutes } from './plans.js';
import { reservedIpRoutes } from './reserved-ips.js';
import { securityGroupRoutes } from './security-groups.js';
import { serverIpRoutes } from './server-ips.js';
import { serverRoutes } from './servers.js';
import { sshKeyRoutes } from './ssh-keys.js';
import { workerRoutes } from './workers.js';

export const routes: readonly Route[] = [
  ...reservedIpRoutes,
  ...workerRoutes,
  ...serverRoutes,
  ...serverIpRoutes,
  ...backupRoutes,
  ...securityGroupRoutes,
  ...sshKeyRoutes,
  ...planRoutes,
  ...accountRoutes,
];
