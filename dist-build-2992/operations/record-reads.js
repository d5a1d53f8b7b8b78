export const WATCH_READ = { server: 'server.status', worker: 'worker.status' };
export const SUBSCRIPTION_READS = {
    server: ['server.status'],
    worker: ['worker.status'],
    usage: ['account.usage'],
    invoices: ['account.invoices'],
    digest: ['account.usage', 'account.invoices'],
};
//# sourceMappingURL=record-reads.js.map