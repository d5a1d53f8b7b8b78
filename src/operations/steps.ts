/**
 * Workflow Builder steps (issue 23), part of the catalog: each step names the operation it runs,
 * its inputs as the manifest's `functions` declare them (typed, titled, hinted) and which
 * argument each fills, and what it outputs. Inputs are validated by the operation's own schema
 * before anything is sent (app/run-step.ts); a change's outputs come from the entry's
 * `change.outputs`, stored with its record. manifest.yml's `functions` must match this list
 * (test/e2e/manifest.test.ts).
 */
import type { CloudClient } from '../cloud/cloud-client.js';
import { serverId } from '../cloud/ids.js';
import type { WatchKind } from '../store/watch-store.js';
import { stepBackupFailed, stepBackupGone } from '../views/step-views.js';

export type StepInputType = 'slack#/types/user_id' | 'slack#/types/channel_id' | 'string' | 'integer';

export interface StepParam {
  name: string;
  type: StepInputType;
  title: string;
  hint: string;
  /** The operation's argument it fills (inputs only; absent for `channel` and `requester`). */
  arg?: string;
  optional?: boolean;
}

export type StepOutputs = Record<string, string | number>;

/** After the change succeeded: still waiting, finished with outputs, or failed with a sentence. */
export type Settled = { kind: 'wait' } | { kind: 'done'; outputs: StepOutputs } | { kind: 'failed'; error: string };

export interface StepSpec {
  /** The manifest's callback_id. */
  callbackId: string;
  title: string;
  description: string;
  /** Catalog id of the operation it runs. */
  opId: string;
  inputs: StepParam[];
  outputs: StepParam[];
  /** A read's outputs from its answer. */
  readOutputs?(result: unknown): StepOutputs;
  /** A change followed by a watch of this kind completes when the watch ends (its outputs from the watch's state). */
  waitsForWatch?: WatchKind;
  /** Looks again after the change succeeded, until the work is finished (a backup being taken). */
  settle?(cloud: CloudClient, outputs: StepOutputs, signal: AbortSignal): Promise<Settled>;
}

/** Every step's first inputs: where it asks and posts, and whose role is checked. */
export const STEP_CHANNEL: StepParam = {
  name: 'channel',
  type: 'slack#/types/channel_id',
  title: 'Channel',
  hint: 'Where the bot asks for confirmation and posts the result; its channel policy applies.',
};
export const STEP_REQUESTER: StepParam = {
  name: 'requester',
  type: 'slack#/types/user_id',
  title: 'Requested by',
  hint: 'Usually the person who used this workflow; their role in the channel is checked.',
};

const server: StepParam = { name: 'server', type: 'string', title: 'Server', hint: 'Numeric id, short uuid, full uuid or a name the bot has seen.', arg: 'server' };
const str = (v: unknown): string => (v == null ? '' : String(v));

/** A step as the table declares it: the inputs after channel and requester, the operation's arguments. */
type StepDecl = Omit<StepSpec, 'inputs'> & { args: StepParam[] };
const withAudience = ({ args, ...decl }: StepDecl): StepSpec => ({ ...decl, inputs: [STEP_CHANNEL, STEP_REQUESTER, ...args] });

const DECLARED: StepDecl[] = [
  {
    callbackId: 'server_status',
    title: 'Server status',
    description: 'Reads the live power state and status of a server.',
    opId: 'server.status',
    args: [server],
    outputs: [
      { name: 'power_state', type: 'string', title: 'Power state', hint: 'running, stopped, …' },
      { name: 'status', type: 'string', title: 'Status', hint: 'The application status (installing, reinstalling…), or ready.' },
    ],
    readOutputs: (r) => {
      const s = r as { state?: string | null; server_status?: string | null };
      return { power_state: str(s.state) || 'unknown', status: str(s.server_status) || 'ready' };
    },
  },
  {
    callbackId: 'backup_create',
    title: 'Back up a server',
    description: 'Takes a backup after someone confirms in the channel; outputs its uuid once it is finished.',
    opId: 'backup.create',
    args: [
      server,
      { name: 'name', type: 'string', title: 'Backup name', hint: 'At most 40 characters; left empty, the cloud names it.', arg: 'name', optional: true },
    ],
    outputs: [{ name: 'backup_uuid', type: 'string', title: 'Backup uuid', hint: 'The finished backup.' }],
    async settle(cloud, outputs, signal) {
      const uuid = str(outputs.backup_uuid);
      let found: { is_successful?: boolean | null; completed_at?: string | null } | undefined;
      for await (const b of cloud.backups.all(serverId(str(outputs.server)), { signal })) {
        if (b.uuid === uuid) {
          found = b;
          break;
        }
      }
      if (!found) return { kind: 'failed', error: stepBackupGone(uuid, str(outputs.server)) };
      if (found.is_successful) return { kind: 'done', outputs: { backup_uuid: uuid } };
      // The spec's only other mark: completed without success is a failed backup (as backup-views shows it).
      return found.completed_at ? { kind: 'failed', error: stepBackupFailed(uuid, str(outputs.server)) } : { kind: 'wait' };
    },
  },
  {
    callbackId: 'ip_reserve',
    title: 'Reserve IP addresses',
    description: 'Reserves addresses from a subnet after someone confirms (billed hourly while unused).',
    opId: 'ip.reserve',
    args: [
      { name: 'location', type: 'integer', title: 'Location id', hint: 'See /cloud ip subnets.', arg: 'location' },
      { name: 'subnet', type: 'string', title: 'Subnet id', hint: 'For example sub-ams-1 (see /cloud ip subnets).', arg: 'subnet' },
      { name: 'quantity', type: 'integer', title: 'How many', hint: 'Default 1.', arg: 'quantity', optional: true },
    ],
    outputs: [
      { name: 'addresses', type: 'string', title: 'Addresses', hint: 'The reserved addresses, comma-separated.' },
      { name: 'count', type: 'integer', title: 'How many', hint: 'How many were reserved.' },
    ],
  },
  {
    callbackId: 'worker_deploy',
    title: 'Deploy a worker',
    description: 'Deploys a worker from a git repository after someone confirms; completes once it is active, or fails with the build’s error.',
    opId: 'worker.deploy',
    args: [
      { name: 'name', type: 'string', title: 'Worker name', hint: 'The new worker’s name.', arg: 'name' },
      { name: 'location', type: 'integer', title: 'Location id', hint: 'See /cloud worker locations.', arg: 'location' },
      { name: 'repo', type: 'string', title: 'Git repository', hint: 'https://… or git@… of a public repository.', arg: 'repo' },
      { name: 'branch', type: 'string', title: 'Branch', hint: 'Default: the repository’s default branch.', arg: 'branch', optional: true },
    ],
    outputs: [
      { name: 'worker_uuid', type: 'string', title: 'Worker uuid', hint: 'The active worker.' },
      { name: 'fqdn', type: 'string', title: 'Address', hint: 'Where the worker answers, when it has an address.', optional: true },
    ],
    waitsForWatch: 'worker',
  },
  {
    callbackId: 'sg_add_rule',
    title: 'Add a firewall rule',
    description: 'Adds a rule to a security group after someone confirms.',
    opId: 'sg.add-rule',
    args: [
      { name: 'group', type: 'string', title: 'Security group', hint: 'Its id or a name the bot has seen.', arg: 'id' },
      { name: 'direction', type: 'string', title: 'Direction', hint: 'inbound or outbound.', arg: 'type' },
      { name: 'action', type: 'string', title: 'Action', hint: 'ACCEPT, REJECT or DROP.', arg: 'action' },
      { name: 'protocol', type: 'string', title: 'Protocol', hint: 'tcp, udp, icmp, …', arg: 'protocol' },
      { name: 'source', type: 'string', title: 'Source', hint: 'An address, CIDR or range; empty means anywhere.', arg: 'source', optional: true },
      { name: 'port', type: 'string', title: 'Destination port', hint: '443, 80,443 or 8000:8100 (tcp and udp).', arg: 'port', optional: true },
      { name: 'comment', type: 'string', title: 'Comment', hint: 'What the rule is for.', arg: 'comment', optional: true },
    ],
    outputs: [{ name: 'rule_id', type: 'integer', title: 'Rule id', hint: 'The new rule.' }],
  },
  {
    callbackId: 'server_reinstall',
    title: 'Reinstall a server',
    description: 'Reinstalls a server’s operating system (erases its disk) after someone confirms by typing its name; completes once the install is done.',
    opId: 'server.reinstall',
    args: [
      server,
      { name: 'template', type: 'string', title: 'Template', hint: 'An operating system slug such as ubuntu-24.04.', arg: 'template' },
    ],
    outputs: [{ name: 'server', type: 'string', title: 'Server', hint: 'The reinstalled server.' }],
    waitsForWatch: 'server',
  },
];

export const STEPS: readonly StepSpec[] = DECLARED.map(withAudience);

export const stepById = (callbackId: string): StepSpec | undefined => STEPS.find((s) => s.callbackId === callbackId);

/** A step's operation arguments from its inputs, as typed words (the operation's schema reads them). */
export function stepArgs(step: StepSpec, inputs: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const p of step.inputs) {
    if (!p.arg) continue;
    const v = inputs[p.name];
    if (v === undefined || v === null || v === '') continue;
    args[p.arg] = typeof v === 'number' ? String(v) : v;
  }
  return args;
}

/** Outputs from a finished watch's state: what the manifest declares, and nothing else. */
export function outputsFromWatch(step: StepSpec, base: StepOutputs, state: Record<string, unknown> | null): StepOutputs {
  const out: StepOutputs = { ...base };
  if (state && typeof state.fqdn === 'string' && state.fqdn) out.fqdn = state.fqdn;
  return declaredOnly(step, out);
}

export function declaredOnly(step: StepSpec, outputs: StepOutputs): StepOutputs {
  return Object.fromEntries(step.outputs.filter((o) => outputs[o.name] !== undefined).map((o) => [o.name, outputs[o.name]!]));
}
