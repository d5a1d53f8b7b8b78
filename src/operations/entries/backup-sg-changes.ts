/** Catalog entries registered through this list (see src/operations/index.ts). */
import type { AnyOperation } from '../types.js';
import { backupCreate, backupDelete } from './backup-changes.js';
import { sgAddRule, sgAttach, sgDeleteRule, sgDeploy } from './sg-changes.js';

export const ENTRIES: AnyOperation[] = [backupCreate, backupDelete, sgAddRule, sgDeleteRule, sgAttach, sgDeploy];
