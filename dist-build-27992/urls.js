/** The URL shapes the runtime contract accepts (config.ts), as pure checks. */
/** An http(s) URL whose path ends in /v2 (a Cloud API base URL). */
export function isV2Url(value) {
    try {
        const u = new URL(value);
        return (u.protocol === 'https:' || u.protocol === 'http:') && /\/v2\/*$/.test(u.pathname);
    }
    catch {
        return false;
    }
}
/** postgres:// or postgresql:// with a host (DATABASE_URL for replicas). */
export function isPostgresUrl(value) {
    try {
        const u = new URL(value);
        return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== '';
    }
    catch {
        return false;
    }
}
export function isHttpUrl(value) {
    try {
        const u = new URL(value);
        return u.protocol === 'https:' || u.protocol === 'http:';
    }
    catch {
        return false;
    }
}
//# sourceMappingURL=urls.js.map