/**
 * The sandbox's in-memory account. Stateful resources are kept in camelCase with clock
 * milliseconds; views.ts renders them into the wire shapes of src/cloud-api/schemas.ts. Simple
 * catalog records (SSH keys, invoices, templates, firewall rules) are kept in wire shape.
 *
 * Everything here is plain mutable data on purpose: tests tweak knobs directly
 * (`sandbox.state.account.balance = 0`).
 */
import type { FirewallRule, Invoice, SshKey, WorkerTemplate } from '../cloud-api/schemas.js';

/** Account-level knobs ("Limits" in cloud-api-v2.md; values are "set by account level"). */
export interface AccountState {
  /** Live credit, compared with first-hour prices (spec "What the service does" 4). */
  balance: number;
  /** Shared by extra server addresses and unused reserved IPs (spec "Limits"). */
  ipLimit: number;
  workersAllowed: number;
  /** false → POST /workers answers WORKERS_DISABLED. */
  workersEnabled: boolean;
  /** false → `hosted_git` deploys answer GIT_HOST_NOT_CONNECTED. */
  gitHostConnected: boolean;
  minimumWorkerCredit: number;
  /** Spec "Limits": a weekly IP removal limit exists, value not shown. */
  weeklyIpRemovalLimit: number;
  ipRemovalsThisWeek: number;
  /** Reported by GET /account/usage. */
  cpuLimit: number;
  ramLimitGb: number;
}

export interface LocationState {
  id: number;
  name: string;
  shortCode: string;
  description: string;
  /** false → GET /plans?location_id= answers an empty list (spec "Plans and locations"). */
  openForOrdering: boolean;
  /** Listed by GET /workers/locations. */
  workerLocation: boolean;
  /** Worker location out of stock → LOCATION_UNAVAILABLE. */
  workersOutOfStock: boolean;
}

export interface SubnetState {
  id: string;
  locationId: number;
  type: 'ipv4' | 'ipv6';
  /** Network address, e.g. "185.10.20.0". */
  network: string;
  prefix: number;
  gateway: string;
  hourlyPrice: number;
  /** Usable addresses: hosts network+2 … network+1+size (network+1 is the gateway). */
  size: number;
  /** Addresses of the pool in use by anyone (this account or other customers). */
  taken: string[];
}

export interface ServerIpState {
  address: string;
  type: 'ipv4' | 'ipv6';
  gateway: string;
  cidr: number;
  rdns: string | null;
  /** Primary addresses (first IPv4, first IPv6) cannot be removed (CANNOT_REMOVE_PRIMARY). */
  primary: boolean;
}

export interface PowerTaskState {
  action: string;
  status: string;
  state: string;
  upid: string;
  message: string;
  updatedAt: number;
}

export interface ServerState {
  id: number;
  uuid: string;
  uuidShort: string;
  name: string;
  hostname: string;
  planId: number;
  locationId: number;
  nodeId: number;
  /** Application-level status: null, 'installing', 'reinstalling', 'restoring', 'suspended'. */
  status: string | null;
  /** Clock ms at which installing/reinstalling finishes; settled lazily (lifecycle.ts). */
  busyUntil: number | null;
  /** Hypervisor state: 'running' or 'stopped'. */
  powerState: string;
  powerTask: PowerTaskState | null;
  cpu: number;
  memory: number;
  disk: number;
  bandwidthUsage: number;
  bandwidthLimit: number;
  createdAt: number;
  osTemplate: string;
  ips: ServerIpState[];
  username: string;
  /** null while installing (password_status 'generating'). */
  rootPassword: string | null;
  /** Password revealed when busyUntil passes. */
  pendingPassword: string | null;
}

export interface ReservedIpState {
  address: string;
  type: 'ipv4' | 'ipv6';
  gateway: string;
  cidr: number;
  rdns: string | null;
  subnetId: string;
  locationId: number;
  /** Server using the address now, null when unused (billed hourly). */
  serverId: number | null;
  reservedAt: number;
}

export interface WorkerState {
  uuid: string;
  name: string;
  locationId: number;
  gitSource: string;
  gitRepository: string;
  gitBranch: string;
  buildPack: string;
  portsExposes: string | null;
  baseDirectory: string;
  publishDirectory: string | null;
  installCommand: string | null;
  buildCommand: string | null;
  startCommand: string | null;
  isSpa: boolean;
  status: string;
  runtimeStatus: string | null;
  runtimeStatusAt: number | null;
  provisioned: boolean;
  lastDeploymentStatus: string;
  lastDeploymentAt: number;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
  /** Background build in progress; null once settled. */
  build: { startedAt: number; buildMs: number; fails: boolean } | null;
  /** Test hooks (hostile-output tests): an fqdn and a suspension reason the cloud reports as given. */
  fqdnOverride?: string;
  suspensionReason?: string;
}

export interface BackupState {
  uuid: string;
  name: string;
  mode: string;
  compressionType: string;
  isLocked: boolean;
  isSuccessful: boolean;
  size: number;
  createdAt: number;
  /** null until the backup completes (lifecycle.ts). */
  completedAt: number | null;
  /** When an in-progress backup completes, and the size it will have. */
  completesAt: number;
  finalSize: number;
}

export interface SecurityGroupState {
  id: number;
  name: string;
  description: string;
  createdAt: number;
  rules: FirewallRule[];
  serverIds: number[];
}

export interface PlanState {
  id: number;
  name: string;
  cpu: number;
  memory: number;
  disk: number;
  bandwidthLimit: number;
  monthlyPrice: number;
  hourlyPrice: number;
  backupPrice: number;
  backupLimit: number;
  /** null for a global plan. */
  locationId: number | null;
  hidden: boolean;
  /** Location ids where the plan is out of stock (`available: false`). */
  outOfStockAt: number[];
}

/** Provider notes: OS templates are `{ slug, name, group_name }`. */
export interface OsTemplate {
  slug: string;
  name: string;
  group_name: string;
}

export interface SandboxState {
  account: AccountState;
  locations: LocationState[];
  subnets: SubnetState[];
  servers: ServerState[];
  reservedIps: ReservedIpState[];
  workerTemplates: WorkerTemplate[];
  workers: WorkerState[];
  /** Backups per server id. */
  backups: Record<number, BackupState[]>;
  securityGroups: SecurityGroupState[];
  sshKeys: SshKey[];
  plans: PlanState[];
  invoices: Invoice[];
  osTemplates: OsTemplate[];
  /** Next ids handed out for created records. */
  nextIds: { rule: number };
}

// ── Lookups shared by routes ──────────────────────────────────────────────────────────────

/** Spec "Server identifier": numeric id, 8-char uuid_short or 36-char uuid. */
export function findServer(state: SandboxState, ident: string): ServerState | undefined {
  const lower = ident.toLowerCase();
  if (/^\d+$/.test(ident)) {
    const byId = state.servers.find((s) => s.id === Number(ident));
    // An all-digit uuid_short is possible (hex), so fall back to it.
    if (byId || lower.length !== 8) return byId;
  }
  if (lower.length === 8) return state.servers.find((s) => s.uuidShort === lower);
  if (lower.length === 36) return state.servers.find((s) => s.uuid === lower);
  return undefined;
}

export function findLocation(state: SandboxState, id: number): LocationState | undefined {
  return state.locations.find((l) => l.id === id);
}

export function findPlan(state: SandboxState, id: number): PlanState | undefined {
  return state.plans.find((p) => p.id === id);
}

export function reservedIpOf(state: SandboxState, address: string): ReservedIpState | undefined {
  return state.reservedIps.find((r) => r.address === address);
}

/**
 * Addresses counting against the account IP limit (spec "Reserved IP list envelope"):
 * extra (non-primary) addresses on servers plus reserved IPs no server uses.
 */
export function ipUsed(state: SandboxState): number {
  const extra = state.servers.reduce((n, s) => n + s.ips.filter((ip) => !ip.primary).length, 0);
  const unused = state.reservedIps.filter((r) => r.serverId === null).length;
  return extra + unused;
}

export function backupsOf(state: SandboxState, serverId: number): BackupState[] {
  return (state.backups[serverId] ??= []);
}

/** Statuses during which an operation needing a free server is refused (spec "States"). */
export const BUSY_STATUSES: readonly string[] = ['installing', 'reinstalling', 'restoring'];
