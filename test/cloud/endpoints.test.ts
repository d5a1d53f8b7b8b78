/** The endpoint table (cloud/endpoints.ts) and the request recorder (cloud/recorder.ts). */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCloudClient } from '../../src/cloud/client.js';
import { CLOUD_OPERATION_COUNT } from '../../src/cloud/cloud-client.js';
import { clientFrom, data, endpoint, pages } from '../../src/cloud/define-endpoints.js';
import { buildRequest, ENDPOINTS, splitTemplate } from '../../src/cloud/endpoints.js';
import { CloudApiError } from '../../src/cloud/errors.js';
import { createTransport } from '../../src/cloud/http.js';
import { positiveInt } from '../../src/cloud/ids.js';
import { SshKey } from '../../src/cloud-api/schemas.js';
import { recordRequest, UnrecordableCallError } from '../../src/cloud/recorder.js';
import { changeRequest } from '../../src/operations/change-request.js';
import { defineOperation, positional } from '../../src/operations/define.js';
import { ok, page, startFakeServer } from './fake-server.js';
import { TOKEN, autoClock } from './helpers.js';

const invalid = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof CloudApiError && e.code === 'INVALID_IDENTIFIER') return e.message;
    throw e;
  }
  throw new Error('expected INVALID_IDENTIFIER');
};

describe('the endpoint table', () => {
  it('names one method of the client per endpoint, for all the client’s operations', () => {
    const client = createCloudClient({ baseUrl: 'http://127.0.0.1:9/v2', token: 't' }) as unknown as Record<string, Record<string, unknown>>;
    const names = Object.keys(ENDPOINTS);
    expect(names).toHaveLength(CLOUD_OPERATION_COUNT);
    for (const name of names) {
      const [group, method] = name.split('.') as [string, string];
      expect(typeof client[group]?.[method], name).toBe('function');
    }
    expect(new Set(Object.values(ENDPOINTS).map((e) => `${e.method} ${e.template}`)).size).toBe(names.length);
  });

  it('is all there is to the client: every method is an entry, or the page walk of one', () => {
    const client = createCloudClient({ baseUrl: 'http://127.0.0.1:9/v2', token: 't' }) as unknown as Record<string, Record<string, unknown>>;
    const methods = Object.entries(client).flatMap(([group, g]) => (typeof g === 'function' ? [] : Object.keys(g).map((m) => `${group}.${m}`)));
    const walks = Object.entries(ENDPOINTS).flatMap(([name, e]) => (e.reply.kind === 'pages' ? [`${name.split('.')[0]}.${e.reply.all}`] : []));
    expect(methods.sort()).toEqual([...Object.keys(ENDPOINTS), ...walks].sort());
    expect(CLOUD_OPERATION_COUNT).toBe(Object.keys(ENDPOINTS).length);
  });

  it('has one validator for each {segment} of each template, and no other', () => {
    for (const [name, e] of Object.entries(ENDPOINTS)) {
      expect(splitTemplate(e.template).names.sort(), name).toEqual(Object.keys(e.segments).sort());
    }
  });

  it('gives a body schema to exactly the endpoints that take a body', () => {
    const withBody = Object.entries(ENDPOINTS).filter(([, e]) => e.body).map(([n]) => n);
    expect(withBody.sort()).toEqual(
      ['backups.create', 'reservedIps.reserve', 'securityGroups.addRule', 'securityGroups.attachServer', 'servers.reinstall', 'servers.rename', 'workers.deploy'].sort(),
    );
  });
});

describe('a table makes its client', () => {
  it('gives a new entry its method: segments validated and encoded, the answer read, pages walked', async () => {
    const server = await startFakeServer();
    const transport = createTransport({ baseUrl: server.baseUrl, token: TOKEN, clock: autoClock() });
    const table = {
      'sshKeys.show': endpoint('GET', '/ssh-keys/{id}', { id: (v: number) => positiveInt(v, 'SSH key id') }, data(SshKey)),
      'sshKeys.list': endpoint('GET', '/ssh-keys', {}, pages(SshKey, { all: 'every' })),
    };
    const cloud = clientFrom(table, transport);
    try {
      server.script('GET', '/ssh-keys/12', ok({ id: 12, name: 'ci', extra: 'dropped' }));
      expect(await cloud.sshKeys.show(12)).toStrictEqual({ id: 12, name: 'ci' });
      expect(server.requests.map((r) => `${r.method} ${r.rawUrl}`)).toEqual(['GET /v2/ssh-keys/12']);

      await expect(cloud.sshKeys.show('../account' as unknown as number)).rejects.toMatchObject({ code: 'INVALID_IDENTIFIER' });
      expect(server.requests).toHaveLength(1);

      server.script('GET', '/ssh-keys', page([{ id: 1 }], 1, 2), page([{ id: 2 }], 2, 2));
      const ids: number[] = [];
      for await (const k of cloud.sshKeys.every()) ids.push(k.id);
      expect(ids).toEqual([1, 2]);
      await expect(cloud.sshKeys.list({ page: 0 })).rejects.toMatchObject({ code: 'INVALID_IDENTIFIER' });
    } finally {
      await transport.close();
      await server.close();
    }
  });
});

describe('buildRequest', () => {
  it('fills the template with validated, encoded segments', () => {
    expect(buildRequest('servers.removeIp', { server: '101', address: '2a0c:8c0:1::11' })).toStrictEqual({
      method: 'DELETE',
      path: '/servers/101/ips/2a0c%3A8c0%3A1%3A%3A11',
    });
    expect(buildRequest('securityGroups.deleteRule', { id: 7, rule: 73 })).toStrictEqual({ method: 'DELETE', path: '/security-groups/7/rules/73' });
    expect(buildRequest('sshKeys.list', {})).toStrictEqual({ method: 'GET', path: '/ssh-keys' });
  });

  it('refuses the first bad segment, in template order, with its own words', () => {
    expect(invalid(() => buildRequest('servers.removeIp', { server: '../account', address: 'nope' }))).toContain('is not a server id');
    expect(invalid(() => buildRequest('servers.removeIp', { server: '101', address: '10.0.0.1%eth0' }))).toContain('is not an IP address');
    expect(invalid(() => buildRequest('securityGroups.deleteRule', { id: 7, rule: 0 }))).toContain('is not a rule id');
    expect(invalid(() => buildRequest('backups.delete', { server: '101', backup: '..' }))).toContain('is not a uuid');
  });

  it('gives the body as it is serialized: undefined fields left out, a copy of the input', () => {
    const body = { name: 'x', mode: undefined, compression_type: 'zstd' as const };
    const r = buildRequest('backups.create', { server: '101' }, body);
    expect(r).toStrictEqual({ method: 'POST', path: '/servers/101/backups', body: { name: 'x', compression_type: 'zstd' } });
    expect(r.body).not.toBe(body);
  });
});

describe('recordRequest', () => {
  it('records what the real client would send, and sends nothing', () => {
    expect(recordRequest((c) => c.servers.reinstall('101', { template_slug: 'debian-12', ssh_key_ids: [11] }))).toStrictEqual({
      method: 'POST',
      path: '/servers/101/reinstall',
      body: { template_slug: 'debian-12', ssh_key_ids: [11] },
    });
    expect(recordRequest((c) => c.securityGroups.deploy(7))).toStrictEqual({ method: 'POST', path: '/security-groups/7/deploy' });
  });

  it('refuses a call that sends nothing before its first await, or sends two requests', () => {
    expect(() => recordRequest(async (c) => {
      await Promise.resolve();
      return c.securityGroups.deploy(7);
    })).toThrow(UnrecordableCallError);
    expect(() => recordRequest((c) => Promise.all([c.securityGroups.deploy(7), c.securityGroups.deploy(8)]))).toThrow(/2 requests/);
    // A bad identifier rejects before any request: nothing to describe.
    expect(() => recordRequest((c) => c.securityGroups.deploy(0))).toThrow(UnrecordableCallError);
  });
});

describe('changeRequest', () => {
  const idArg = { id: positional('id', z.coerce.number(), 'id') };
  const change = { confirm: false, describe: () => ({ title: '' as never, lines: [] }), summarize: () => ({ text: '' as never }) };

  it('is the request the change’s run sends', () => {
    const op = defineOperation({ id: 'x.deploy', summary: 's', tier: 'change', args: idArg, run: ({ cloud }, { id }) => cloud.securityGroups.deploy(id), change });
    expect(changeRequest(op, { id: 7 })).toStrictEqual({ method: 'POST', path: '/security-groups/7/deploy' });
  });

  it('refuses a run that reads before it changes (what it would show is not what it sends)', () => {
    const op = defineOperation({
      id: 'x.look-first',
      summary: 's',
      tier: 'change',
      args: idArg,
      run: async ({ cloud }, { id }) => (await cloud.securityGroups.get(id)) && cloud.securityGroups.deploy(id),
      change,
    });
    expect(() => changeRequest(op, { id: 7 })).toThrow(/x\.look-first: a change's run must send its change first, not GET \/security-groups\/7/);
  });
});
