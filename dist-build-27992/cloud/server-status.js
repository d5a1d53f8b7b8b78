/**
 * What the spec says a server's statuses mean ("Server application status", "Credentials
 * password_status"). One place for these facts: the reinstall and backup prechecks, the
 * reinstall watch and the status view all read them here.
 */
/** Application statuses during which a server is busy: reinstall and backups are refused (SERVER_STATUS_CONFLICT). */
export const SERVER_BUSY_STATUSES = new Set(['installing', 'reinstalling', 'restoring']);
export function isServerBusy(status) {
    return status != null && SERVER_BUSY_STATUSES.has(status);
}
/** Application statuses the spec names (the busy ones, and `suspended`). */
export const SERVER_APP_STATUSES = new Set([...SERVER_BUSY_STATUSES, 'suspended']);
/** Power states the spec samples. */
export const POWER_STATES = new Set(['running', 'stopped']);
/** `generating` while installing, `ready` when the root password is available. */
export const PASSWORD_STATUSES = new Set(['generating', 'ready']);
//# sourceMappingURL=server-status.js.map