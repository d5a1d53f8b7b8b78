/**
 * What the rest of the bot sees of the Cloud API v2: one method per operation the spec names
 * (shared/spec/cloud-api-v2.md "Endpoints" and "Referenced operations"), grouped by resource.
 * Every method returns parsed data or throws `CloudApiError`.
 *
 * Identifiers typed by users (`server`, `address`, `backupUuid`, numeric ids) are validated
 * locally by the implementation before any request (code INVALID_IDENTIFIER).
 */
import type {
  AccountUsage,
  AttachResult,
  Backup,
  DeployRequirements,
  DeployResult,
  FirewallRule,
  Invoice,
  Page,
  Plan,
  ReinstallResult,
  ReservedIp,
  ReservedIpMeta,
  SecurityGroup,
  Server,
  ServerCredentials,
  ServerIp,
  ServerStatus,
  SshKey,
  Subnet,
  Worker,
  WorkerLocation,
  WorkerTemplate,
} from './schemas.js';
import type {
  AddRuleBody,
  CreateBackupBody,
  DeployWorkerBody,
  ReinstallBody,
  ReserveIpsBody,
} from './requests.js';

/** Per-call options. `signal` aborts the call (and any retry wait). */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface PageQuery extends CallOptions {
  page?: number;
}

export interface PlanQuery extends PageQuery {
  location_id?: number;
}

export interface ReserveIpsResult {
  data: ReservedIp[];
  meta: ReservedIpMeta;
}

/** `server` everywhere: a numeric id, an 8-character `uuid_short` or a 36-character `uuid`. */
export interface CloudClient {
  reservedIps: {
    /** POST /reserved-ips (201) */
    reserve(body: ReserveIpsBody, opts?: CallOptions): Promise<ReserveIpsResult>;
    /** GET /reserved-ips/subnets */
    subnets(opts?: CallOptions): Promise<Subnet[]>;
  };
  workers: {
    /** GET /workers/deploy-requirements */
    requirements(opts?: CallOptions): Promise<DeployRequirements>;
    /** POST /workers */
    deploy(body: DeployWorkerBody, opts?: CallOptions): Promise<Worker>;
    /** GET /workers/locations */
    locations(opts?: CallOptions): Promise<WorkerLocation[]>;
    /** GET /workers/templates */
    templates(opts?: CallOptions): Promise<WorkerTemplate[]>;
    /** GET /workers/{worker}/status — `worker` is the worker's uuid */
    status(worker: string, opts?: CallOptions): Promise<Worker>;
  };
  servers: {
    /** POST /servers/{server}/reinstall */
    reinstall(server: string, body: ReinstallBody, opts?: CallOptions): Promise<ReinstallResult>;
    /** PATCH /servers/{server}/rename */
    rename(server: string, name: string, opts?: CallOptions): Promise<Server>;
    /** GET /servers/{server}/status */
    status(server: string, opts?: CallOptions): Promise<ServerStatus>;
    /** GET /servers/{server}/credentials */
    credentials(server: string, opts?: CallOptions): Promise<ServerCredentials>;
    /** GET /servers/{server}/ips */
    ips(server: string, opts?: CallOptions): Promise<ServerIp[]>;
    /** DELETE /servers/{server}/ips/{address} (204) */
    removeIp(server: string, address: string, opts?: CallOptions): Promise<void>;
  };
  backups: {
    /** POST /servers/{server}/backups */
    create(server: string, body: CreateBackupBody, opts?: CallOptions): Promise<Backup>;
    /** GET /servers/{server}/backups?page= */
    list(server: string, query?: PageQuery): Promise<Page<Backup>>;
    /** Every backup, page by page. */
    all(server: string, opts?: CallOptions): AsyncIterable<Backup>;
    /** DELETE /servers/{server}/backups/{backup_uuid} (204) */
    delete(server: string, backupUuid: string, opts?: CallOptions): Promise<void>;
  };
  securityGroups: {
    /** GET /security-groups/{id} */
    get(id: number, opts?: CallOptions): Promise<SecurityGroup>;
    /** POST /security-groups/{id}/rules */
    addRule(id: number, body: AddRuleBody, opts?: CallOptions): Promise<FirewallRule>;
    /** DELETE /security-groups/{id}/rules/{rule_id} (204) */
    deleteRule(id: number, ruleId: number, opts?: CallOptions): Promise<void>;
    /** POST /security-groups/{id}/servers/attach — `serverUuid`: uuid or uuid_short */
    attachServer(id: number, serverUuid: string, opts?: CallOptions): Promise<AttachResult>;
    /** POST /security-groups/{id}/deploy */
    deploy(id: number, opts?: CallOptions): Promise<DeployResult>;
  };
  sshKeys: {
    /** GET /ssh-keys */
    list(opts?: CallOptions): Promise<SshKey[]>;
    /** DELETE /ssh-keys/{id} (204) */
    delete(id: number, opts?: CallOptions): Promise<void>;
  };
  plans: {
    /** GET /plans?location_id=&page= */
    list(query?: PlanQuery): Promise<Page<Plan>>;
    all(query?: Omit<PlanQuery, 'page'>): AsyncIterable<Plan>;
  };
  account: {
    /** GET /account/invoices?page= */
    invoices(query?: PageQuery): Promise<Page<Invoice>>;
    allInvoices(opts?: CallOptions): AsyncIterable<Invoice>;
    /** GET /account/usage */
    usage(opts?: CallOptions): Promise<AccountUsage>;
  };
}

/** The number of distinct cloud operations above (README states it). */
export const CLOUD_OPERATION_COUNT = 26;
