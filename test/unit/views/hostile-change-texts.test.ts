/**
 * What the change entries say — the confirmation title and lines, the channel summary, an
 * early refusal — with hostile typed arguments and cloud values: each must be inert mrkdwn.
 * The bug this guards: a rename to `<!channel>` posted a live @channel in the status message.
 */
import { describe, expect, it } from 'vitest';
import type { Mrkdwn } from '../../../src/views/mrkdwn.js';
import type { AnyOperation, RunContext } from '../../../src/operations/types.js';
import { backupCreate, backupDelete } from '../../../src/operations/entries/backup-changes.js';
import { ipReserve } from '../../../src/operations/entries/ip-reserve.js';
import { serverReinstall, serverRemoveIp, serverRename } from '../../../src/operations/entries/server-changes.js';
import { sgAddRule, sgAttach, sgDeleteRule } from '../../../src/operations/entries/sg-changes.js';
import { sshKeyDelete } from '../../../src/operations/entries/ssh-key-changes.js';
import { workerDeploy } from '../../../src/operations/entries/worker-deploy.js';
import { HOSTILE_MARKER, HOSTILE_SAMPLES, NOTHING_LIVE } from '../../rig/hostile-strings.js';
import { checkMrkdwn } from '../../rig/mrkdwn-abuse-checker.js';

const MARK = HOSTILE_MARKER;
const HOSTILE = HOSTILE_SAMPLES;
const allow = NOTHING_LIVE;

function inert(texts: (Mrkdwn | undefined)[]): void {
  const all = texts.filter((t): t is Mrkdwn => t !== undefined);
  expect(all.length).toBeGreaterThan(0);
  for (const t of all) {
    expect(checkMrkdwn(t, allow, 'text')).toEqual([]);
    for (const live of ['<!channel>', '<@U1>', '<http://x|y>', '\u202E']) expect(t).not.toContain(live);
    expect(t).not.toMatch(/\n\*Approved\*/);
  }
  expect(all.join('\n')).toContain(MARK); // shown as a value, not dropped
}

const change = (op: AnyOperation) => op.change!;
const said = (op: AnyOperation, args: object, facts: Record<string, unknown> = {}) => {
  const d = change(op).describe(args as never, facts);
  return [d.title, ...d.lines];
};
const refusal = async (op: AnyOperation, cloud: unknown, args: object) => {
  const ctx = { cloud, clock: { now: () => Date.parse('2026-11-22T12:00:00Z') } } as unknown as RunContext;
  const r = await change(op).precheck!(ctx, args as never);
  expect(r.refuse).toBeDefined();
  return r.refuse;
};

it('the reported bug: a rename to <!channel> is shown as a value', () => {
  expect(change(serverRename).describe({ server: '101', name: '<!channel>' } as never, {}).title).toBe('Rename server `101` to `&lt;!channel&gt;`');
});

describe.each(HOSTILE)('change texts with %j', (h) => {
  it('server rename, reinstall, remove-ip', async () => {
    inert(said(serverRename, { server: h, name: h }));
    inert([change(serverRename).summarize({ name: h, hostname: h } as never, { server: h } as never).text]);
    inert(said(serverReinstall, { server: h, template: h, 'ssh-keys': [1] }, { hostname: h }));
    inert([change(serverReinstall).summarize({ status: h } as never, { server: h, template: h } as never).text]);
    inert([await refusal(serverReinstall, { servers: { status: async () => ({ server_status: 'installing' }) } }, { server: h })]);
    inert(said(serverRemoveIp, { server: h, address: h }, { reserved: true }));
    inert([change(serverRemoveIp).summarize(undefined as never, { server: h, address: h } as never).text]);
    inert([await refusal(serverRemoveIp, { servers: { ips: async () => [] } }, { server: h, address: h })]);
    inert([await refusal(serverRemoveIp, { servers: { ips: async () => [{ address: h }], credentials: async () => ({ ipv4: h }) } }, { server: h, address: h })]);
  });

  it('backups and SSH keys', async () => {
    inert(said(backupCreate, { server: h, name: h }));
    inert([change(backupCreate).summarize({ uuid: h, name: h } as never, { server: h } as never).text]);
    inert([await refusal(backupCreate, { servers: { status: async () => ({ server_status: 'restoring' }) } }, { server: h })]);
    inert(said(backupDelete, { server: h, backup: h }, { name: h, size: 1024, ageMs: 3 * 86_400_000 }));
    inert([change(backupDelete).summarize(undefined as never, { server: h, backup: h } as never).text]);
    const locked = { backups: { all: async function* () { yield { uuid: h, name: h, is_locked: true }; } } };
    inert([await refusal(backupDelete, locked, { server: h, backup: h })]);
    inert(said(sshKeyDelete, { id: 4 }, { name: h }));
  });

  it('reserved IPs', async () => {
    inert(said(ipReserve, { location: 1, subnet: h, quantity: 2 }, { cidr: h, type: 'ipv4', where: h, hourlyPrice: 0.01, ipUsed: 1, ipLimit: 8 }));
    inert([change(ipReserve).summarize({ data: [{ address: h }], meta: {} } as never, { subnet: h } as never).text]);
    const elsewhere = { reservedIps: { subnets: async () => [{ id: h, subnet: h, location_id: 2, location: { id: 2, short_code: h } }] }, account: { usage: async () => ({}) } };
    inert([await refusal(ipReserve, elsewhere, { location: 1, subnet: h, quantity: 1 })]);
    const full = { reservedIps: { subnets: async () => [{ id: h, subnet: h, location_id: 1, available: 0 }] }, account: { usage: async () => ({}) } };
    inert([await refusal(ipReserve, full, { location: 1, subnet: h, quantity: 1 })]);
  });

  it('security groups: a rule from the cloud, an attach status', async () => {
    const rule = { id: 5, type: h, action: h, protocol: h, source: h, destination: h, source_port: h, destination_port: h, comment: h, priority: 1 };
    inert([change(sgAddRule).summarize(rule as never, { id: 7 } as never).text]);
    inert(said(sgDeleteRule, { id: 7, rule: 5 }, { rule, group: h, servers: 2 }));
    inert(said(sgAttach, { id: 7, server: h }));
    inert([change(sgAttach).summarize({ status: h } as never, { id: 7, server: h } as never).text]);
    // The add-rule title shows what was typed, checked: a comment is the free-text part.
    inert(said(sgAddRule, { id: 7, type: 'inbound', action: 'ACCEPT', protocol: 'tcp', port: '22', comment: h.replace(/\n/g, ' ') }));
  });

  it('worker deploy: typed arguments, cloud names, the refusals', async () => {
    inert(said(workerDeploy, { name: h, location: 1, source: 'public', repo: h, branch: h, install: h, build: h, start: h, port: h }, { where: h, credit: 5, minimumCredit: 1 }));
    inert(said(workerDeploy, { name: h, location: 1, source: 'template', template: h }, { templateName: h }));
    inert([change(workerDeploy).summarize({ uuid: h, name: h, status: h, fqdn: h } as never, { name: h } as never).text]);
    const cloud = (locations: unknown[], templates: unknown[] = []) => ({
      workers: {
        requirements: async () => ({ sufficient: true, credit: 10, minimum_credit: 1, workers_used: 0, workers_allowed: 3 }),
        locations: async () => locations,
        templates: async () => templates,
      },
    });
    inert([await refusal(workerDeploy, cloud([{ id: 1, short_code: h, name: h, out_of_stock: true }, { id: 2, short_code: h }]), { name: 'a', location: 1, source: 'public', repo: 'https://x.test/r.git' })]);
    inert([await refusal(workerDeploy, cloud([{ id: 1 }], [{ id: h, name: h, type: h }]), { name: 'a', location: 1, source: 'template', template: h })]);
  });
});
