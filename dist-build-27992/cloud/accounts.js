import { createCloudClient } from './client.js';
export class UnknownAccountError extends Error {
    account;
    name = 'UnknownAccountError';
    constructor(account) {
        super(`no cloud account named ${account} is configured`);
        this.account = account;
    }
}
export function createCloudAccounts(options) {
    const made = [];
    let byName = new Map();
    const make = (target) => {
        const base = {
            baseUrl: target.baseUrl,
            token: target.token,
            clock: options.clock,
            dispatcher: options.dispatcher,
            ...(options.retry ? { retry: options.retry } : {}),
        };
        const pair = { target, cloud: createCloudClient(base), watch: createCloudClient({ ...base, userAgent: options.watchUserAgent }) };
        made.push(pair.cloud, pair.watch);
        return pair;
    };
    const same = (a, b) => a.baseUrl === b.baseUrl && a.token === b.token;
    function update(targets) {
        const next = new Map();
        for (const t of targets) {
            const old = byName.get(t.name);
            next.set(t.name, old && same(old.target, t) ? old : make(t));
        }
        // Old clients stay open until `close`: a request in flight on them finishes.
        byName = next;
    }
    update(options.targets);
    const pair = (account) => {
        const p = byName.get(account);
        if (!p)
            throw new UnknownAccountError(account);
        return p;
    };
    return {
        client: (account) => pair(account).cloud,
        watchClient: (account) => pair(account).watch,
        has: (account) => byName.has(account),
        names: () => [...byName.keys()],
        update,
        async close() {
            await Promise.all(made.map((c) => c.close()));
        },
    };
}
//# sourceMappingURL=accounts.js.map