/**
 * The store's contract for proactive notifications (issue 13): subscriptions per channel,
 * alerts (one per incident and subscription, edited in place), the last committed state of
 * each polled resource, and named leases (one replica runs the monitor at a time).
 */
export {};
//# sourceMappingURL=monitor-types.js.map