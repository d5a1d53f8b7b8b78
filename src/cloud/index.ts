/** Public surface of the Cloud API v2 client. */
export { createCloudClient } from './client.js';
export type { CloudClientOptions, ClosableCloudClient } from './client.js';
export { CLOUD_OPERATION_COUNT } from './cloud-client.js';
export type { CallOptions, CloudClient, PageQuery, PlanQuery, ReserveIpsResult } from './cloud-client.js';
export {
  CHOSEN_ERROR_CODES,
  CloudApiError,
  LOCAL_ERROR_CODES,
  PROVIDER_ERROR_CODES,
  SPEC_ERROR_CODES,
  cloudErrorFromResponse,
  isCloudApiError,
  parseRetryAfter,
} from './errors.js';
export type { CloudApiErrorInit, KnownErrorCode } from './errors.js';
export { DEFAULT_TIMEOUTS, createTransport } from './http.js';
export type { HttpMethod, TimeoutOptions, Transport, TransportEvent, TransportOptions, TransportRequest, TransportResponse } from './http.js';
export { DEFAULT_RETRY } from './retry.js';
export type { RetryOptions } from './retry.js';
export {
  IpAddressSchema,
  PositiveIntSchema,
  ServerIdSchema,
  ServerUuidSchema,
  UuidSchema,
  identifierMessage,
  ipAddress,
  isIpAddress,
  isServerId,
  isServerUuid,
  isUuid,
  path,
  positiveInt,
  serverId,
  serverUuid,
  uuid,
} from './ids.js';
export type { IpAddress, PathSegment, PositiveInt, ServerId, ServerUuid, Uuid, Validated } from './ids.js';
export { MAX_PAGES, collectList, fetchPage, iteratePages } from './paginate.js';
export { ENDPOINTS, buildRequest, splitTemplate } from './endpoints.js';
export type { BodyOf, BuiltRequest, Endpoint, EndpointName, ParamsOf } from './endpoints.js';
export { UnrecordableCallError, recordRequest } from './recorder.js';
export type { PageFetcher } from './paginate.js';
export * from '../cloud-api/schemas.js';
export * from './requests.js';
