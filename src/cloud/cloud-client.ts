/**
 * What the rest of the bot sees of the Cloud API v2: one method per entry of the endpoint table
 * (endpoints.ts), grouped by resource, typed from the entry. Every method returns parsed data or
 * throws `CloudApiError`.
 *
 * Identifiers typed by users (`server`, `address`, backup uuids, numeric ids) are validated
 * locally before any request (code INVALID_IDENTIFIER).
 */
import type { ClientOf, PageQuery } from './define-endpoints.js';
import { ENDPOINTS } from './endpoints.js';
import type { ReservedIp, ReservedIpMeta } from '../cloud-api/schemas.js';

export type { CallOptions, PageQuery } from './define-endpoints.js';

export interface PlanQuery extends PageQuery {
  location_id?: number;
}

export interface ReserveIpsResult {
  data: ReservedIp[];
  meta: ReservedIpMeta;
}

/** `server` everywhere: a numeric id, an 8-character `uuid_short` or a 36-character `uuid`. */
export type CloudClient = ClientOf<typeof ENDPOINTS>;

/** The number of distinct cloud operations: the endpoints of the table (README states it). */
export const CLOUD_OPERATION_COUNT = Object.keys(ENDPOINTS).length;
