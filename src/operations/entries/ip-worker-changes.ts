/** Catalog entries registered through this list (see src/operations/index.ts): the spending changes. */
import type { AnyOperation } from '../types.js';
import { ipReserve } from './ip-reserve.js';
import { workerDeploy } from './worker-deploy.js';

export const ENTRIES: AnyOperation[] = [ipReserve, workerDeploy];
