import { clientFrom } from './define-endpoints.js';
import { ENDPOINTS } from './endpoints.js';
import { createTransport } from './http.js';
import { guardGroup } from './redaction.js';
/** The resource groups over any transport (the recorder of recorder.ts uses one that never sends). */
export function assembleClient(transport, guard = (g) => g) {
    return clientFrom(ENDPOINTS, transport, guard);
}
export function createCloudClient(options) {
    const transport = createTransport(options);
    const client = assembleClient(transport, (group) => guardGroup(group, options.token));
    return { ...client, close: () => transport.close() };
}
//# sourceMappingURL=client.js.map