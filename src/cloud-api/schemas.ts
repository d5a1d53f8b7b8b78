/**
 * Tolerant readers for Cloud API v2 responses (shared/spec/cloud-api-v2.md, "Resources and
 * their fields"; shared/spec/provider-notes.md, "Nulls beyond the spec's `?`").
 *
 * Rules:
 * - A field the bot must act on (ids, uuids, addresses, statuses) is required.
 * - Every other field accepts null or absence (`nullish`), because the live provider sends
 *   null even where the spec has no `?`.
 * - Unknown fields are ignored (zod objects strip them).
 * - Numbers the provider may serialise as strings (prices, balances) are accepted as either.
 *
 * These types are also the sandbox's output contract: the sandbox builds objects of these
 * shapes, the client parses them.
 */
import { z } from 'zod';

/** A number that may arrive as a JSON number or a numeric string ("1.50"). */
export const numeric = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);
const int = z.number().int();
const str = z.string();
const bool = z.boolean();
/** Timestamps are kept as the ISO strings the API sends; views format them. */
const time = z.string();

// ── Shared pieces ───────────────────────────────────────────────────────────────────────────

export const LocationRef = z.object({
  id: int,
  short_code: str.nullish(),
  description: str.nullish(),
});
export type LocationRef = z.infer<typeof LocationRef>;

/** Pagination envelope `meta` ("Pagination envelope"). */
export const PageMeta = z.object({
  current_page: int,
  last_page: int,
  per_page: int.nullish(),
  total: int.nullish(),
});
export type PageMeta = z.infer<typeof PageMeta>;

// ── Reserved IPs ────────────────────────────────────────────────────────────────────────────

export const ReservedIp = z.object({
  address: str,
  type: z.enum(['ipv4', 'ipv6']).or(str),
  gateway: str.nullish(),
  cidr: int.nullish(),
  rdns: str.nullish(),
  subnet: str.nullish(),
  location: LocationRef.nullish(),
  server: z
    .object({ uuid: str, uuid_short: str.nullish(), hostname: str.nullish() })
    .nullish(),
  reserved_at: time.nullish(),
});
export type ReservedIp = z.infer<typeof ReservedIp>;

export const ReservedIpMeta = z.object({
  count: int.nullish(),
  limit: int.nullish(),
  used: int.nullish(),
  hourly_price: numeric.nullish(),
});
export type ReservedIpMeta = z.infer<typeof ReservedIpMeta>;

/**
 * `GET /reserved-ips/subnets` — shape "not shown" in the spec or provider notes. We read the
 * fields a reserve form needs and tolerate the rest: `id` (the `subnet_id` to send), the
 * location it belongs to, its CIDR, and free/total counts and price when present.
 */
export const Subnet = z.object({
  id: z.union([str, int]).transform(String),
  location_id: int.nullish(),
  location: LocationRef.nullish(),
  subnet: str.nullish(),
  type: str.nullish(),
  available: int.nullish(),
  total: int.nullish(),
  hourly_price: numeric.nullish(),
});
export type Subnet = z.infer<typeof Subnet>;

// ── Workers ─────────────────────────────────────────────────────────────────────────────────

export const WorkerLocation = z.object({
  id: int,
  name: str.nullish(),
  short_code: str.nullish(),
  description: str.nullish(),
  out_of_stock: bool.nullish(),
});
export type WorkerLocation = z.infer<typeof WorkerLocation>;

const Limits = z.object({
  cpu: int.nullish(),
  memory_mb: int.nullish(),
  disk_mb: int.nullish(),
});

export const Worker = z.object({
  uuid: str,
  name: str.nullish(),
  status: str,
  runtime_status: str.nullish(),
  runtime_status_at: time.nullish(),
  provisioned: bool.nullish(),
  last_deployment_status: str.nullish(),
  last_deployment_at: time.nullish(),
  last_error: str.nullish(),
  fqdn: str.nullish(),
  location_id: int.nullish(),
  git_source: str.nullish(),
  git_repository: str.nullish(),
  git_branch: str.nullish(),
  build_pack: str.nullish(),
  ports_exposes: str.nullish(),
  base_directory: str.nullish(),
  publish_directory: str.nullish(),
  install_command: str.nullish(),
  build_command: str.nullish(),
  start_command: str.nullish(),
  is_spa: bool.nullish(),
  limits: Limits.nullish(),
  usage: z
    .object({ cpu_percent: numeric.nullish(), memory_mb: int.nullish(), disk_mb: int.nullish() })
    .nullish(),
  billing_type: str.nullish(),
  suspended_at: time.nullish(),
  suspension_reason: str.nullish(),
  created_at: time.nullish(),
  updated_at: time.nullish(),
  location: WorkerLocation.nullish(),
});
export type Worker = z.infer<typeof Worker>;

export const DeployRequirements = z.object({
  minimum_credit: numeric,
  credit: numeric,
  sufficient: bool,
  workers_used: int,
  workers_allowed: int,
  limits: Limits.nullish(),
});
export type DeployRequirements = z.infer<typeof DeployRequirements>;

/**
 * `GET /workers/templates` — shape "not shown". Entries are referenced by `id` from
 * `git_repository` when `git_source` is `template` or `database`; `type` says which.
 */
export const WorkerTemplate = z.object({
  id: z.union([str, int]).transform(String),
  name: str.nullish(),
  type: str.nullish(),
  description: str.nullish(),
});
export type WorkerTemplate = z.infer<typeof WorkerTemplate>;

// ── Servers ─────────────────────────────────────────────────────────────────────────────────

export const ServerIp = z.object({
  address: str,
  type: z.enum(['ipv4', 'ipv6']).or(str),
  gateway: str.nullish(),
  cidr: int.nullish(),
  rdns: str.nullish(),
  reserved: bool.nullish(),
});
export type ServerIp = z.infer<typeof ServerIp>;

export const Server = z.object({
  id: int,
  uuid: str,
  uuid_short: str.nullish(),
  name: str.nullish(),
  hostname: str.nullish(),
  status: str.nullish(),
  cpu: int.nullish(),
  memory: int.nullish(),
  disk: int.nullish(),
  bandwidth_usage: int.nullish(),
  bandwidth_limit: int.nullish(),
  node_id: int.nullish(),
  created_at: time.nullish(),
  ip_addresses: z.array(ServerIp).nullish(),
});
export type Server = z.infer<typeof Server>;

export const ServerStatus = z.object({
  state: str.nullish(),
  power_task: z
    .object({
      action: str.nullish(),
      status: str.nullish(),
      state: str.nullish(),
      upid: str.nullish(),
      message: str.nullish(),
      updated_at: time.nullish(),
    })
    .nullish(),
  server_status: str.nullish(),
  /** Not in the spec's status answer; kept when a provider sends it, so the name is learned. */
  name: str.nullish(),
  hostname: str.nullish(),
});
/** The keys of ServerStatus that the spec's status answer does not have (the sandbox sends none). */
export const SERVER_STATUS_BEYOND_SPEC = ['name', 'hostname'] as const;
export type ServerStatus = z.infer<typeof ServerStatus>;

export const ServerCredentials = z.object({
  username: str.nullish(),
  root_password: str.nullish(),
  password_status: str,
  ipv4: str.nullish(),
  ipv6: str.nullish(),
});
export type ServerCredentials = z.infer<typeof ServerCredentials>;

export const ReinstallResult = z.object({
  status: str,
  password: str.nullish(),
});
export type ReinstallResult = z.infer<typeof ReinstallResult>;

// ── Backups ─────────────────────────────────────────────────────────────────────────────────

export const Backup = z.object({
  uuid: str,
  name: str.nullish(),
  is_successful: bool.nullish(),
  is_locked: bool.nullish(),
  size: int.nullish(),
  completed_at: time.nullish(),
  created_at: time.nullish(),
});
export type Backup = z.infer<typeof Backup>;

// ── Security groups ─────────────────────────────────────────────────────────────────────────

export const FirewallRule = z.object({
  id: int,
  type: str,
  action: str,
  protocol: str.nullish(),
  source: str.nullish(),
  destination: str.nullish(),
  source_port: str.nullish(),
  destination_port: str.nullish(),
  comment: str.nullish(),
  priority: int.nullish(),
});
export type FirewallRule = z.infer<typeof FirewallRule>;

export const SecurityGroup = z.object({
  id: int,
  name: str.nullish(),
  description: str.nullish(),
  vm_count: int.nullish(),
  rules_count: int.nullish(),
  created_at: time.nullish(),
  rules: z.array(FirewallRule).nullish(),
  servers: z
    .array(z.object({ uuid: str, uuid_short: str.nullish(), name: str.nullish() }))
    .nullish(),
});
export type SecurityGroup = z.infer<typeof SecurityGroup>;

/** `POST /security-groups/{id}/servers/attach` → `data.status` (`attached`). */
export const AttachResult = z.object({ status: str });
export type AttachResult = z.infer<typeof AttachResult>;

/** `POST /security-groups/{id}/deploy` — shape "not shown"; a status string if any. */
export const DeployResult = z.object({ status: str.nullish() });
export type DeployResult = z.infer<typeof DeployResult>;

// ── SSH keys, plans, account ────────────────────────────────────────────────────────────────

/** `GET /ssh-keys` → `{ id, name, public_key, created_at }` (provider notes). */
export const SshKey = z.object({
  id: int,
  name: str.nullish(),
  public_key: str.nullish(),
  created_at: time.nullish(),
});
export type SshKey = z.infer<typeof SshKey>;

/** Some provider versions say `vcpus`/`ram` for `cpu`/`memory` (provider notes). */
function normalisePlan(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object') return raw;
  const p = { ...(raw as Record<string, unknown>) };
  if (p.cpu == null && p.vcpus != null) p.cpu = p.vcpus;
  if (p.memory == null && p.ram != null) p.memory = p.ram;
  return p;
}

export const Plan = z.preprocess(
  normalisePlan,
  z.object({
    id: int,
    name: str.nullish(),
    cpu: int.nullish(),
    memory: int.nullish(),
    disk: int.nullish(),
    bandwidth_limit: int.nullish(),
    monthly_price: numeric.nullish(),
    hourly_price: numeric.nullish(),
    backup_price: numeric.nullish(),
    backup_limit: int.nullish(),
    location_id: int.nullish(),
    available: bool.nullish(),
  }),
);
export type Plan = z.infer<typeof Plan>;

export const Invoice = z.object({
  id: int,
  status: str.nullish(),
  total: numeric.nullish(),
  amount_due: numeric.nullish(),
  amount_paid: numeric.nullish(),
  type: str.nullish(),
  created_at: time.nullish(),
});
export type Invoice = z.infer<typeof Invoice>;

export const AccountUsage = z.object({
  servers: int.nullish(),
  cpu_used: int.nullish(),
  cpu_limit: int.nullish(),
  ram_used: int.nullish(),
  ram_limit_gb: int.nullish(),
  disk_used: int.nullish(),
  ip_used: int.nullish(),
  ip_limit: int.nullish(),
});
export type AccountUsage = z.infer<typeof AccountUsage>;

// ── Envelopes ───────────────────────────────────────────────────────────────────────────────

/** `{ error: { code, message, details? } }` ("Errors"). */
export const ErrorEnvelope = z.object({
  error: z.object({
    code: str,
    message: str.nullish(),
    details: z.record(z.string(), z.unknown()).nullish(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}
