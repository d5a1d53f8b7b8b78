/**
 * Renders state into the response shapes of src/cloud-api/schemas.ts ("Resources and their
 * fields"). `Full<T>` makes every field of the contract present (null where there is no
 * value, as the live provider does — provider-notes "Nulls beyond the spec's `?`").
 */
import type {
  AccountUsage,
  Backup,
  FirewallRule,
  LocationRef,
  Plan,
  ReservedIp,
  SecurityGroup,
  Server,
  ServerCredentials,
  ServerIp,
  ServerStatus,
  Subnet,
  Worker,
  WorkerLocation,
} from '../cloud-api/schemas.js';
import { cidrOf, freeCount } from './ip-pool.js';
import { findLocation, ipUsed } from './state.js';
import type {
  BackupState,
  LocationState,
  PlanState,
  ReservedIpState,
  SandboxState,
  SecurityGroupState,
  ServerState,
  SubnetState,
  WorkerState,
} from './state.js';

export type Full<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };

export const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export function locationRef(l: LocationState | undefined): Full<LocationRef> | null {
  return l ? { id: l.id, short_code: l.shortCode, description: l.description } : null;
}

export function workerLocationView(l: LocationState): Full<WorkerLocation> {
  return { id: l.id, name: l.name, short_code: l.shortCode, description: l.description, out_of_stock: l.workersOutOfStock };
}

export function reservedIpView(state: SandboxState, r: ReservedIpState): Full<ReservedIp> {
  const subnet = state.subnets.find((s) => s.id === r.subnetId);
  const srv = r.serverId === null ? undefined : state.servers.find((s) => s.id === r.serverId);
  return {
    address: r.address,
    type: r.type,
    gateway: r.gateway,
    cidr: r.cidr,
    rdns: r.rdns,
    subnet: subnet ? cidrOf(subnet) : null,
    location: locationRef(findLocation(state, r.locationId)),
    server: srv ? { uuid: srv.uuid, uuid_short: srv.uuidShort, hostname: srv.hostname } : null,
    reserved_at: iso(r.reservedAt),
  };
}

export function subnetView(state: SandboxState, s: SubnetState): Full<Subnet> {
  return {
    id: s.id,
    location_id: s.locationId,
    location: locationRef(findLocation(state, s.locationId)),
    subnet: cidrOf(s),
    type: s.type,
    available: freeCount(s),
    total: s.size,
    hourly_price: s.hourlyPrice,
  };
}

export function workerView(state: SandboxState, w: WorkerState): Full<Worker> {
  const loc = findLocation(state, w.locationId);
  const running = w.runtimeStatus === 'running';
  return {
    uuid: w.uuid,
    name: w.name,
    status: w.status,
    runtime_status: w.runtimeStatus,
    runtime_status_at: isoOrNull(w.runtimeStatusAt),
    provisioned: w.provisioned,
    last_deployment_status: w.lastDeploymentStatus,
    last_deployment_at: iso(w.lastDeploymentAt),
    last_error: w.lastError,
    fqdn: w.fqdnOverride ?? workerFqdn(w),
    location_id: w.locationId,
    git_source: w.gitSource,
    git_repository: w.gitRepository,
    git_branch: w.gitBranch,
    build_pack: w.buildPack,
    ports_exposes: w.portsExposes,
    base_directory: w.baseDirectory,
    publish_directory: w.publishDirectory,
    install_command: w.installCommand,
    build_command: w.buildCommand,
    start_command: w.startCommand,
    is_spa: w.isSpa,
    limits: WORKER_LIMITS,
    usage: running ? { cpu_percent: 0.8, memory_mb: 142, disk_mb: 310 } : { cpu_percent: 0, memory_mb: 0, disk_mb: 0 },
    billing_type: 'hourly',
    suspended_at: null,
    suspension_reason: w.suspensionReason ?? null,
    created_at: iso(w.createdAt),
    updated_at: iso(w.updatedAt),
    location: loc ? workerLocationView(loc) : null,
  };
}

/** Container limits a new worker gets (deploy requirements `limits`). */
export const WORKER_LIMITS = { cpu: 1, memory_mb: 1024, disk_mb: 10_240 };

export function workerFqdn(w: Pick<WorkerState, 'name' | 'uuid'>): string {
  const slug = w.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
  return `${slug || 'worker'}-${w.uuid.slice(0, 8)}.workers.example.net`;
}

export function serverIpView(state: SandboxState, s: ServerState): Full<ServerIp>[] {
  return s.ips.map((ip) => ({
    address: ip.address,
    type: ip.type,
    gateway: ip.gateway,
    cidr: ip.cidr,
    rdns: ip.rdns,
    reserved: state.reservedIps.some((r) => r.address === ip.address && r.serverId === s.id),
  }));
}

export function serverView(state: SandboxState, s: ServerState): Full<Server> {
  return {
    id: s.id,
    uuid: s.uuid,
    uuid_short: s.uuidShort,
    name: s.name,
    hostname: s.hostname,
    status: s.status,
    cpu: s.cpu,
    memory: s.memory,
    disk: s.disk,
    bandwidth_usage: s.bandwidthUsage,
    bandwidth_limit: s.bandwidthLimit,
    node_id: s.nodeId,
    created_at: iso(s.createdAt),
    ip_addresses: serverIpView(state, s),
  };
}

/** As the spec shows it: no name (the client keeps one a provider adds). */
export function serverStatusView(s: ServerState): Full<Omit<ServerStatus, 'name' | 'hostname'>> {
  const t = s.powerTask;
  return {
    state: s.powerState,
    power_task: t
      ? { action: t.action, status: t.status, state: t.state, upid: t.upid, message: t.message, updated_at: iso(t.updatedAt) }
      : null,
    server_status: s.status,
  };
}

export function credentialsView(s: ServerState): Full<ServerCredentials> {
  const ready = s.rootPassword !== null;
  return {
    username: s.username,
    root_password: s.rootPassword,
    password_status: ready ? 'ready' : 'generating',
    ipv4: s.ips.find((ip) => ip.primary && ip.type === 'ipv4')?.address ?? null,
    ipv6: s.ips.find((ip) => ip.primary && ip.type === 'ipv6')?.address ?? null,
  };
}

export function backupView(b: BackupState): Full<Backup> {
  return {
    uuid: b.uuid,
    name: b.name,
    is_successful: b.isSuccessful,
    is_locked: b.isLocked,
    size: b.size,
    completed_at: isoOrNull(b.completedAt),
    created_at: iso(b.createdAt),
  };
}

/** Rules in the order they are applied: priority, then id (spec "Security groups"). */
export function sortedRules(rules: readonly FirewallRule[]): FirewallRule[] {
  return [...rules].sort((a, b) => (a.priority ?? 0) - (b.priority ?? 0) || a.id - b.id);
}

export function securityGroupView(state: SandboxState, g: SecurityGroupState): Full<SecurityGroup> {
  const servers = g.serverIds
    .map((id) => state.servers.find((s) => s.id === id))
    .filter((s): s is ServerState => s !== undefined)
    .map((s) => ({ uuid: s.uuid, uuid_short: s.uuidShort, name: s.name }));
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    vm_count: servers.length,
    rules_count: g.rules.length,
    created_at: iso(g.createdAt),
    rules: sortedRules(g.rules),
    servers,
  };
}

type PlanOut = Full<Omit<Plan, 'available' | 'cpu' | 'memory'>> & { available?: boolean };
/** Current field names, or the `vcpus`/`ram` variant some provider versions send. */
export type PlanView = (PlanOut & { cpu: number; memory: number }) | (PlanOut & { vcpus: number; ram: number });

export function planView(p: PlanState, legacy: boolean, availableAt?: number): PlanView {
  const compute = legacy ? { vcpus: p.cpu, ram: p.memory } : { cpu: p.cpu, memory: p.memory };
  const view = {
    id: p.id,
    name: p.name,
    ...compute,
    disk: p.disk,
    bandwidth_limit: p.bandwidthLimit,
    monthly_price: p.monthlyPrice,
    hourly_price: p.hourlyPrice,
    backup_price: p.backupPrice,
    backup_limit: p.backupLimit,
    location_id: p.locationId,
    ...(availableAt === undefined ? {} : { available: !p.outOfStockAt.includes(availableAt) }),
  };
  return view as PlanView;
}

export function usageView(state: SandboxState): Full<AccountUsage> {
  const sum = (f: (s: ServerState) => number) => state.servers.reduce((n, s) => n + f(s), 0);
  return {
    servers: state.servers.length,
    cpu_used: sum((s) => s.cpu),
    cpu_limit: state.account.cpuLimit,
    ram_used: sum((s) => s.memory),
    ram_limit_gb: state.account.ramLimitGb,
    disk_used: sum((s) => s.disk),
    ip_used: ipUsed(state),
    ip_limit: state.account.ipLimit,
  };
}
