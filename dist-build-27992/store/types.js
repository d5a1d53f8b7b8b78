/**
 * The store's contract. Every method is async so that a shared server database (several bot
 * replicas) can implement the same interfaces later; the SQLite store answers synchronously
 * underneath.
 */
export const OPERATION_STATUSES = [
    'pending',
    'confirmed',
    'running',
    'succeeded',
    'failed',
    'cancelled',
    'expired',
];
/** States an operation never leaves; reaching one erases its sealed secrets. */
export const TERMINAL_STATUSES = ['succeeded', 'failed', 'cancelled', 'expired'];
//# sourceMappingURL=types.js.map