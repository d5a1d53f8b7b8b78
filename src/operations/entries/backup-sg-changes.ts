/** Catalog entries registered through this list (see src/operations/index.ts). */
import type { AnyOperation } from '../types.js';

export const ENTRIES: AnyOperation[] = [];
