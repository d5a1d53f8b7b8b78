/**
 * The initial account. `seed: true` is a realistic account (four servers, reserved IPs, a
 * worker, backups, two security groups, SSH keys, invoices); `seed: false` an empty account
 * with one location and subnet. Ids and uuids are fixed so other tests can name them.
 */
import { stablePassword, stableUuid } from './ids.js';
import { subnetContaining } from './ip-pool.js';
import { seedLocations, seedOsTemplates, seedPlans, seedSubnets, seedWorkerTemplates } from './seed-catalog.js';
import type {
  AccountState,
  BackupState,
  PowerTaskState,
  ReservedIpState,
  SandboxState,
  SecurityGroupState,
  ServerIpState,
  ServerState,
  SubnetState,
  WorkerState,
} from './state.js';
import type { FirewallRule, Invoice, SshKey } from '../cloud-api/schemas.js';

const MIN = 60_000;
const DAY = 86_400_000;
const GB = 1024 ** 3;

export function defaultAccount(): AccountState {
  return {
    balance: 42.5,
    ipLimit: 8,
    workersAllowed: 3,
    workersEnabled: true,
    gitHostConnected: false,
    minimumWorkerCredit: 5,
    weeklyIpRemovalLimit: 5,
    ipRemovalsThisWeek: 0,
    cpuLimit: 32,
    ramLimitGb: 64,
  };
}

export function createState(now: number, seeded: boolean): SandboxState {
  const state: SandboxState = {
    account: defaultAccount(),
    locations: seeded ? seedLocations() : seedLocations().slice(0, 1),
    subnets: seedSubnets(seeded),
    servers: [],
    reservedIps: [],
    workerTemplates: seedWorkerTemplates(),
    workers: [],
    backups: {},
    securityGroups: [],
    sshKeys: [],
    plans: seedPlans().filter((p) => seeded || p.locationId === null || p.locationId === 1),
    invoices: [],
    osTemplates: seedOsTemplates(),
    nextIds: { rule: 100 },
  };
  if (seeded) seedAccount(state, now);
  return state;
}

function v4(address: string, primary: boolean, rdns: string | null = null): ServerIpState {
  const gateway = address.replace(/\.\d+$/, '.1');
  return { address, type: 'ipv4', gateway, cidr: 24, rdns, primary };
}

function v6(address: string, rdns: string | null): ServerIpState {
  return { address, type: 'ipv6', gateway: '2a0c:8c0:1::1', cidr: 64, rdns, primary: true };
}

function task(action: string, state: string, node: string, at: number): PowerTaskState {
  const upid = `UPID:${node}:000${(at / 1000).toString(16).slice(-5).toUpperCase()}:qm${action}`;
  return { action, status: 'OK', state, upid, message: 'Task finished', updatedAt: at };
}

interface ServerSeed {
  id: number;
  uuid: string;
  name: string;
  planId: number;
  locationId: number;
  nodeId: number;
  ips: ServerIpState[];
  ageDays: number;
}

function server(state: SandboxState, s: ServerSeed, now: number): ServerState {
  const plan = state.plans.find((p) => p.id === s.planId);
  if (!plan) throw new Error(`seed: unknown plan ${s.planId}`);
  const hostname = `${s.name}.example.net`;
  const node = `node-${state.locations.find((l) => l.id === s.locationId)?.shortCode.toLowerCase()}-${s.nodeId}`;
  return {
    id: s.id,
    uuid: s.uuid,
    uuidShort: s.uuid.slice(0, 8),
    name: s.name,
    hostname,
    planId: plan.id,
    locationId: s.locationId,
    nodeId: s.nodeId,
    status: null,
    busyUntil: null,
    powerState: 'running',
    powerTask: task('start', 'running', node, now - s.ageDays * DAY),
    cpu: plan.cpu,
    memory: plan.memory,
    disk: plan.disk,
    bandwidthUsage: Math.round(plan.bandwidthLimit * 0.013 * ((s.id % 7) + 1)),
    bandwidthLimit: plan.bandwidthLimit,
    createdAt: now - s.ageDays * DAY,
    osTemplate: 'ubuntu-24.04',
    ips: s.ips,
    username: 'root',
    rootPassword: stablePassword(s.name),
    pendingPassword: null,
  };
}

/** Seeded server uuids (exported for tests and docs). */
export const SEED_SERVERS = {
  web: { id: 101, uuid: '5f0c3a1e-8b2d-4c6f-9a7e-2d4b6c8e0a11' },
  db: { id: 102, uuid: '9b7e1d42-3c5a-4f8b-a6d0-7e9f1b3c5d22' },
  installing: { id: 103, uuid: 'c2d4e6f8-1a3b-4c5d-8e7f-9a0b1c2d3e33' },
  stopped: { id: 104, uuid: 'e8f0a2b4-6c8d-4e1f-b3a5-c7d9e1f3a544' },
} as const;

export const SEED_WORKER_UUID = '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b66';

function seedServers(state: SandboxState, now: number): void {
  const S = SEED_SERVERS;
  const web = server(state, {
    ...S.web, name: 'web-1', planId: 4, locationId: 1, nodeId: 12, ageDays: 210,
    ips: [v4('185.10.20.11', true, 'web-1.example.net'), v6('2a0c:8c0:1::11', 'web-1.example.net'),
      v4('185.10.20.12', false, 'www.example.net'), v4('185.10.20.50', false)],
  }, now);
  const db = server(state, {
    ...S.db, name: 'db-1', planId: 14, locationId: 1, nodeId: 14, ageDays: 180,
    ips: [v4('185.10.20.21', true, 'db-1.example.net'), v6('2a0c:8c0:1::21', 'db-1.example.net')],
  }, now);
  db.osTemplate = 'debian-12';
  // Installation finishes 5 minutes after the sandbox starts (brief; spec "Credentials").
  const build = server(state, {
    ...S.installing, name: 'build-1', planId: 2, locationId: 2, nodeId: 21, ageDays: 0,
    ips: [v4('45.80.12.31', true, 'build-1.example.net')],
  }, now);
  build.createdAt = now - MIN;
  build.status = 'installing';
  build.busyUntil = now + 5 * MIN;
  build.pendingPassword = build.rootPassword;
  build.rootPassword = null;
  build.powerTask = { ...task('install', 'running', 'node-fra-21', now - MIN), status: 'running', message: 'Installing operating system' };
  const staging = server(state, {
    ...S.stopped, name: 'staging-1', planId: 3, locationId: 3, nodeId: 31, ageDays: 95,
    ips: [v4('104.20.30.41', true, 'staging-1.example.net')],
  }, now);
  staging.powerState = 'stopped';
  staging.powerTask = task('shutdown', 'stopped', 'node-nyc-31', now - 3 * DAY);
  state.servers.push(web, db, build, staging);
  for (const s of state.servers) for (const ip of s.ips) markTaken(state.subnets, ip.address);
}

function markTaken(subnets: SubnetState[], address: string): void {
  const s = subnetContaining(subnets, address);
  if (s && !s.taken.includes(address)) s.taken.push(address);
}

function reserved(address: string, subnetId: string, locationId: number, serverId: number | null, at: number): ReservedIpState {
  return { address, type: 'ipv4', gateway: address.replace(/\.\d+$/, '.1'), cidr: 24, rdns: null, subnetId, locationId, serverId, reservedAt: at };
}

function seedReservedIps(state: SandboxState, now: number): void {
  state.reservedIps.push(
    reserved('185.10.20.50', 'sub-ams-1', 1, 101, now - 40 * DAY),
    reserved('185.10.20.51', 'sub-ams-1', 1, null, now - 12 * DAY),
    reserved('45.80.12.60', 'sub-fra-1', 2, null, now - 3 * DAY),
  );
  for (const r of state.reservedIps) markTaken(state.subnets, r.address);
}

function seedWorker(state: SandboxState, now: number): void {
  const created = now - 20 * DAY;
  const w: WorkerState = {
    uuid: SEED_WORKER_UUID, name: 'docs-site', locationId: 1, gitSource: 'public',
    gitRepository: 'https://github.com/acme/docs-site.git', gitBranch: 'main', buildPack: 'static',
    portsExposes: '80', baseDirectory: '/', publishDirectory: 'dist', installCommand: 'npm ci',
    buildCommand: 'npm run build', startCommand: null, isSpa: true, status: 'active',
    runtimeStatus: 'running', runtimeStatusAt: created + 2 * MIN, provisioned: true,
    lastDeploymentStatus: 'finished', lastDeploymentAt: created, lastError: null,
    createdAt: created, updatedAt: created + 2 * MIN, build: null,
  };
  state.workers.push(w);
}

function backup(serverName: string, n: number, at: number, size: number, locked = false): BackupState {
  return {
    uuid: stableUuid(`backup:${serverName}:${n}`), name: `${serverName}-daily-${new Date(at).toISOString().slice(0, 10)}`,
    mode: 'snapshot', compressionType: 'zstd', isLocked: locked, isSuccessful: true, size,
    createdAt: at, completedAt: at + 4 * MIN, completesAt: at + 4 * MIN, finalSize: size,
  };
}

function seedBackups(state: SandboxState, now: number): void {
  // web-1: 18 daily backups (more than one page of 15), the oldest one locked.
  state.backups[101] = Array.from({ length: 18 }, (_, i) =>
    backup('web-1', i + 1, now - (i + 1) * DAY, Math.round((11.2 + i * 0.07) * GB), i === 17));
  // db-1: exactly its plan's backup_limit (3): one more answers RESOURCE_LIMIT_EXCEEDED.
  state.backups[102] = Array.from({ length: 3 }, (_, i) =>
    backup('db-1', i + 1, now - (i + 1) * DAY, Math.round((31.5 + i * 0.2) * GB)));
}

function rule(id: number, fields: Partial<FirewallRule>): FirewallRule {
  return {
    id, type: 'inbound', action: 'ACCEPT', protocol: 'tcp', source: null, destination: null,
    source_port: null, destination_port: null, comment: null, priority: 0, ...fields,
  };
}

function seedSecurityGroups(state: SandboxState, now: number): void {
  const web: SecurityGroupState = {
    id: 7, name: 'web-default', description: 'Public web traffic and office SSH', createdAt: now - 200 * DAY,
    rules: [
      rule(71, { destination_port: '22', source: '203.0.113.0/24', comment: 'SSH from office', priority: 10 }),
      rule(72, { destination_port: '80,443', comment: 'HTTP and HTTPS', priority: 20 }),
      rule(73, { protocol: 'icmp', comment: 'Ping', priority: 30 }),
      rule(74, { action: 'DROP', protocol: 'all', comment: 'Default deny', priority: 1000 }),
    ],
    serverIds: [101],
  };
  const db: SecurityGroupState = {
    id: 8, name: 'db-internal', description: 'Database access from the web subnet only', createdAt: now - 180 * DAY,
    rules: [
      rule(81, { source: '185.10.20.0/24', destination_port: '5432', comment: 'PostgreSQL from AMS', priority: 10 }),
      rule(82, { action: 'DROP', protocol: 'all', comment: 'Default deny', priority: 100 }),
    ],
    serverIds: [102],
  };
  state.securityGroups.push(web, db);
}

function seedSshKeys(state: SandboxState, now: number): void {
  const key = (id: number, name: string, body: string, ageDays: number): SshKey => ({
    id, name, public_key: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${body} ${name}`, created_at: new Date(now - ageDays * DAY).toISOString(),
  });
  state.sshKeys.push(
    key(11, 'alice@laptop', 'Hk3s9Qm2Zr8Vt1Lx4Nc7Bp0Wd5Fg6Yj2Ua9Ei3Ok8', 300),
    key(12, 'ci-deploy', 'Pq7Rt2Wx9Zc4Vb1Nm6Lk3Jh8Gf5Ds0Ae2Yu7Io4Ty1', 150),
    key(13, 'ops-backup', 'Mn4Bv8Cx2Za6Sd1Fg9Hj3Kl7Qw5Er0Ty2Ui6Op8As3', 20),
  );
}

/** ~35 monthly invoices, most recent first, plus a few credit top-ups. */
function seedInvoices(state: SandboxState, now: number): void {
  const out: Invoice[] = [];
  for (let i = 0; i < 35; i++) {
    const deposit = i % 9 === 4;
    const total = deposit ? 50 : Math.round((58.2 + ((i * 37) % 23) * 1.15) * 100) / 100;
    out.push({
      id: 9035 - i, status: 'paid', total, amount_due: 0, amount_paid: total,
      type: deposit ? 'deposit' : 'renewal', created_at: new Date(now - (i * 30 + 1) * DAY).toISOString(),
    });
  }
  state.invoices = out;
}

function seedAccount(state: SandboxState, now: number): void {
  seedServers(state, now);
  seedReservedIps(state, now);
  seedWorker(state, now);
  seedBackups(state, now);
  seedSecurityGroups(state, now);
  seedSshKeys(state, now);
  seedInvoices(state, now);
}

/** One line naming what a seeded account holds, for the shell banner and the README (ids are hard to find otherwise). */
export function seedSummary(): string {
  const s = createState(0, true);
  const state = (v: ServerState) => (v.status === 'installing' ? ' (installing)' : v.powerState === 'stopped' ? ' (stopped)' : '');
  const servers = s.servers.map((v) => `${v.id} ${v.name}${state(v)}`).join(', ');
  const groups = s.securityGroups.map((g) => `${g.id} ${g.name}`).join(', ');
  const workers = s.workers.map((w) => `${w.name} (${w.uuid})`).join(', ');
  const keys = s.sshKeys.map((k) => `${k.id} ${k.name}`).join(', ');
  const locations = s.locations.map((l) => `${l.id} ${l.shortCode}`).join(', ');
  return `Seeded: servers ${servers}; security groups ${groups}; worker ${workers}; SSH keys ${keys}; locations ${locations}.`;
}

/** What the seeded account names (servers, groups, worker): the local shell knows these names from its first command. */
export function seedNames(): Array<{ kind: 'server' | 'sg' | 'worker'; id: string; uuid: string | null; name: string }> {
  const s = createState(0, true);
  return [
    ...s.servers.map((v) => ({ kind: 'server' as const, id: String(v.id), uuid: v.uuid, name: v.name })),
    ...s.securityGroups.map((g) => ({ kind: 'sg' as const, id: String(g.id), uuid: null, name: g.name })),
    ...s.workers.map((w) => ({ kind: 'worker' as const, id: w.uuid, uuid: w.uuid, name: w.name })),
  ];
}
