import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttachResult, DeployResult, FirewallRule, SecurityGroup } from '../../src/cloud-api/schemas.js';
import { SEED_SERVERS } from '../../src/sandbox/index.js';
import { expectError, expectShape, start } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await start();
});
afterEach(() => h.close());

const ssh = { type: 'inbound', action: 'ACCEPT', protocol: 'tcp', destination_port: '2222', comment: 'alt ssh', priority: 15 };

describe('GET /security-groups/{id}', () => {
  it('returns rules sorted by priority then id, attached servers and counts', async () => {
    const r = await h.call('GET', '/security-groups/7');
    const g = expectShape(SecurityGroup, r.json.data);
    for (const rule of g.rules ?? []) expectShape(FirewallRule, rule);
    expect(g).toMatchObject({ id: 7, name: 'web-default', vm_count: 1, rules_count: 4 });
    expect(g.servers).toEqual([{ uuid: SEED_SERVERS.web.uuid, uuid_short: '5f0c3a1e', name: 'web-1' }]);
    expect(g.rules?.map((x) => x.priority)).toEqual([10, 20, 30, 1000]);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    expectError(await h.call('GET', '/security-groups/999'), 404, 'NOT_FOUND');
    expectError(await h.call('GET', '/security-groups/0'), 404, 'NOT_FOUND');
  });
});

describe('POST /security-groups/{id}/rules', () => {
  it('adds a rule (201) with defaults and orders ties by id', async () => {
    const r = await h.call('POST', '/security-groups/7/rules', { type: 'outbound', action: 'DROP', protocol: 'udp' });
    expect(r.status).toBe(201);
    expect(expectShape(FirewallRule, r.json.data)).toEqual({
      id: 100, type: 'outbound', action: 'DROP', protocol: 'udp', source: null, destination: null,
      source_port: null, destination_port: null, comment: null, priority: 0,
    });
    await h.call('POST', '/security-groups/7/rules', { ...ssh, priority: 10 });
    const rules = (await h.call('GET', '/security-groups/7')).json.data.rules as { id: number; priority: number }[];
    expect(rules.map((x) => [x.priority, x.id])).toEqual([[0, 100], [10, 71], [10, 101], [20, 72], [30, 73], [1000, 74]]);
  });

  it.each([
    ['source', '10.0.0.1'],
    ['source', '10.0.0.0/8'],
    ['source', '10.0.0.1-10.0.0.20'],
    ['source', '2001:db8::1'],
    ['source', '2001:db8::/32'],
    ['source', '2001:db8::1-2001:db8::ff'],
    ['destination', '0.0.0.0/0'],
    ['destination_port', '80'],
    ['destination_port', '8000:8100'],
    ['destination_port', '80,443,8000:8100'],
    ['source_port', '1:65535'],
  ])('accepts %s = %s', async (field, value) => {
    const r = await h.call('POST', '/security-groups/7/rules', { ...ssh, [field]: value });
    expect(r.status).toBe(201);
    expect(r.json.data[field]).toBe(value);
  });

  it.each([
    [{ ...ssh, type: 'sideways' }, 'type'],
    [{ ...ssh, type: undefined }, 'type'],
    [{ ...ssh, action: 'accept' }, 'action'],
    [{ ...ssh, protocol: 'p'.repeat(21) }, 'protocol'],
    [{ ...ssh, protocol: 'quic' }, 'protocol'],
    [{ ...ssh, protocol: undefined }, 'protocol'],
    [{ ...ssh, source: 'example.com' }, 'source'],
    [{ ...ssh, source: '10.0.0' }, 'source'],
    [{ ...ssh, source: '010.0.0.1' }, 'source'],
    [{ ...ssh, source: '10.0.0.0/33' }, 'source'],
    [{ ...ssh, source: '10.0.0.9-10.0.0.1' }, 'source'],
    [{ ...ssh, source: '10.0.0.1-2001:db8::1' }, 'source'],
    [{ ...ssh, source: 'fe80::1%eth0' }, 'source'],
    [{ ...ssh, destination: '1.2.3.4/24/1' }, 'destination'],
    [{ ...ssh, source: '10.0.0.1', destination: '2001:db8::1' }, 'destination'],
    [{ ...ssh, destination_port: '0' }, 'destination_port'],
    [{ ...ssh, destination_port: '65536' }, 'destination_port'],
    [{ ...ssh, destination_port: '90:80' }, 'destination_port'],
    [{ ...ssh, destination_port: '80-90' }, 'destination_port'],
    [{ ...ssh, destination_port: '80, 443' }, 'destination_port'],
    [{ ...ssh, destination_port: '80,' }, 'destination_port'],
    [{ ...ssh, destination_port: `${'1,'.repeat(25)}1` }, 'destination_port'],
    [{ ...ssh, destination_port: 22 }, 'destination_port'],
    [{ ...ssh, protocol: 'icmp' }, 'destination_port'],
    [{ ...ssh, protocol: 'all', destination_port: null, source_port: '53' }, 'source_port'],
    [{ ...ssh, comment: 'c'.repeat(256) }, 'comment'],
    [{ ...ssh, priority: -1 }, 'priority'],
    [{ ...ssh, priority: 'high' }, 'priority'],
  ])('refuses %j with VALIDATION_ERROR', async (body, field) => {
    const err = expectError(await h.call('POST', '/security-groups/7/rules', body), 422, 'VALIDATION_ERROR');
    expect(Object.keys(err.details)).toEqual([field]);
    expect(h.sandbox.state.securityGroups[0]?.rules).toHaveLength(4);
  });

  it('keeps the rule saved when the sync fails (502 HYPERVISOR_SYNC_FAILED)', async () => {
    h.sandbox.failNextSyncs(1);
    const err = expectError(await h.call('POST', '/security-groups/7/rules', ssh), 502, 'HYPERVISOR_SYNC_FAILED');
    expect(err.details).toEqual({ security_group_id: 7, failed_nodes: [12] });
    const g = (await h.call('GET', '/security-groups/7')).json.data;
    expect(g.rules_count).toBe(5);
    expect(g.rules.some((x: { destination_port: string }) => x.destination_port === '2222')).toBe(true);
    // The retry is a deploy, which now succeeds.
    const d = await h.call('POST', '/security-groups/7/deploy');
    expect(d.status).toBe(200);
    expect(expectShape(DeployResult, d.json.data)).toEqual({ status: 'deployed' });
  });
});

describe('DELETE /security-groups/{id}/rules/{rule_id}', () => {
  it('deletes (204), 404s unknown, and keeps the deletion when the sync fails', async () => {
    const d = await h.call('DELETE', '/security-groups/7/rules/73');
    expect(d.status).toBe(204);
    expectError(await h.call('DELETE', '/security-groups/7/rules/73'), 404, 'NOT_FOUND');
    expectError(await h.call('DELETE', '/security-groups/7/rules/81'), 404, 'NOT_FOUND');
    h.sandbox.failNextSyncs(1);
    expectError(await h.call('DELETE', '/security-groups/7/rules/72'), 502, 'HYPERVISOR_SYNC_FAILED');
    expect((await h.call('GET', '/security-groups/7')).json.data.rules.map((x: { id: number }) => x.id)).toEqual([71, 74]);
  });

  it('fails exactly the next n syncs', async () => {
    h.sandbox.failNextSyncs(2);
    expect((await h.call('POST', '/security-groups/7/deploy')).status).toBe(502);
    expect((await h.call('POST', '/security-groups/8/deploy')).status).toBe(502);
    expect((await h.call('POST', '/security-groups/7/deploy')).status).toBe(200);
  });
});

describe('POST /security-groups/{id}/servers/attach', () => {
  it('attaches by uuid or uuid_short, refuses twice with ALREADY_ATTACHED', async () => {
    const r = await h.call('POST', '/security-groups/7/servers/attach', { server_uuid: SEED_SERVERS.db.uuid });
    expect(r.status).toBe(200);
    expect(expectShape(AttachResult, r.json.data)).toEqual({ status: 'attached' });
    const short = await h.call('POST', '/security-groups/7/servers/attach', { server_uuid: SEED_SERVERS.stopped.uuid.slice(0, 8) });
    expect(short.status).toBe(200);
    expect((await h.call('GET', '/security-groups/7')).json.data.vm_count).toBe(3);
    expectError(await h.call('POST', '/security-groups/7/servers/attach', { server_uuid: '5f0c3a1e' }), 422, 'ALREADY_ATTACHED');
  });

  it('refuses a missing server_uuid (422), an unknown server (404) and reports a failed sync (502, attached)', async () => {
    expectError(await h.call('POST', '/security-groups/7/servers/attach', {}), 422, 'VALIDATION_ERROR');
    expectError(await h.call('POST', '/security-groups/7/servers/attach', { server_uuid: 'deadbeef' }), 404, 'NOT_FOUND');
    expectError(await h.call('POST', '/security-groups/7/servers/attach', { server_uuid: '101' }), 404, 'NOT_FOUND');
    h.sandbox.failNextSyncs(1);
    expectError(await h.call('POST', '/security-groups/8/servers/attach', { server_uuid: '5f0c3a1e' }), 502, 'HYPERVISOR_SYNC_FAILED');
    expect((await h.call('GET', '/security-groups/8')).json.data.vm_count).toBe(2);
  });
});
