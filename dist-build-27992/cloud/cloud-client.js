import { ENDPOINTS } from './endpoints.js';
/** The number of distinct cloud operations: the endpoints of the table (README states it). */
export const CLOUD_OPERATION_COUNT = Object.keys(ENDPOINTS).length;
//# sourceMappingURL=cloud-client.js.map