const orNull = (v) => (v === undefined || v === '' ? null : v);
export async function observe(cloud, kind, resource, signal) {
    const opts = signal ? { signal } : {};
    switch (kind) {
        case 'server': {
            const s = await cloud.servers.status(resource, opts);
            return {
                power: orNull(s.state),
                app: orNull(s.server_status),
                taskAction: orNull(s.power_task?.action),
                taskStatus: orNull(s.power_task?.status),
                taskMessage: orNull(s.power_task?.message),
            };
        }
        case 'worker': {
            const w = await cloud.workers.status(resource, opts);
            return {
                name: orNull(w.name),
                status: orNull(w.status),
                deployment: orNull(w.last_deployment_status),
                error: orNull(w.last_error),
                suspended: w.suspended_at ? (w.suspension_reason ?? 'suspended') : null,
            };
        }
        case 'usage': {
            const u = await cloud.account.usage(opts);
            return {
                cpuUsed: orNull(u.cpu_used),
                cpuLimit: orNull(u.cpu_limit),
                ramUsed: orNull(u.ram_used),
                ramLimitGb: orNull(u.ram_limit_gb),
                ipUsed: orNull(u.ip_used),
                ipLimit: orNull(u.ip_limit),
            };
        }
        case 'invoices': {
            // Most recent first: a new unpaid invoice is on the first page.
            const page = await cloud.account.invoices({ page: 1, ...opts });
            const unpaid = page.data
                .filter((i) => (i.amount_due ?? 0) > 0 || /unpaid|overdue|due|open/i.test(i.status ?? ''))
                .map((i) => ({ id: i.id, status: i.status ?? null, amountDue: i.amount_due ?? null, total: i.total ?? null, createdAt: i.created_at ?? null }));
            return { unpaid };
        }
    }
}
//# sourceMappingURL=observe.js.map