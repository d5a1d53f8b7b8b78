/**
 * What the monitor reads of each kind of resource: one request per poll, and only what the
 * channel may see (a server's status, never its credentials). The state is plain JSON so it
 * can be stored and compared; conditions.ts turns it into alert conditions.
 */
import type { CloudClient } from '../cloud/cloud-client.js';
import type { SubscriptionKind } from '../store/monitor-types.js';

export type PolledKind = Exclude<SubscriptionKind, 'digest'>;
export type MonitorState = Record<string, unknown>;

const orNull = (v: unknown) => (v === undefined || v === '' ? null : v);

/** Pages read beyond the first to find unpaid invoices newer ones pushed off it. */
export const INVOICE_FOLLOW_PAGES = 5;

/**
 * `follow`: invoice ids last seen unpaid. Newer invoices may push one off the first page; it is
 * looked for on the next few pages, and `seen` lists the ids read, so one not found is not
 * taken for paid (conditions.ts shownCleared).
 */
export async function observe(cloud: CloudClient, kind: PolledKind, resource: string, signal?: AbortSignal, follow: readonly unknown[] = []): Promise<MonitorState> {
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
      let page = await cloud.account.invoices({ page: 1, ...opts });
      const read = [...page.data];
      const wanted = new Set(follow.map(String));
      const missing = () => [...wanted].some((id) => !read.some((i) => String(i.id) === id));
      for (let n = 2; n <= 1 + INVOICE_FOLLOW_PAGES && n <= (page.meta?.last_page ?? 1) && page.data.length > 0 && missing(); n++) {
        page = await cloud.account.invoices({ page: n, ...opts });
        read.push(...page.data.filter((i) => wanted.has(String(i.id))));
      }
      const unpaid = read
        .filter((i) => (i.amount_due ?? 0) > 0 || /unpaid|overdue|due|open/i.test(i.status ?? ''))
        .map((i) => ({ id: i.id, status: i.status ?? null, amountDue: i.amount_due ?? null, total: i.total ?? null, createdAt: i.created_at ?? null }));
      return { unpaid, seen: read.map((i) => i.id) };
    }
  }
}
