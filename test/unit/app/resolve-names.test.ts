/** Names instead of numbers: parse-time name shapes, resolution per account, suggestions, remember hooks. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalog } from '../../../src/operations/index.js';
import { parseCommand } from '../../../src/operations/parse-command.js';
import { resolveNames } from '../../../src/app/resolve-names.js';
import { rememberAnswer } from '../../../src/app/name-steps.js';
import { groupSeen, serverFromIps, serverFromStatus, serverSeen } from '../../../src/operations/remember.js';
import { createSqliteStore, type Store } from '../../../src/store/index.js';

const T0 = Date.parse('2026-11-22T12:00:00Z');
const op = (id: string) => catalog.byId(id)!;
const parsedArgs = (text: string) => {
  const p = parseCommand(text, catalog);
  if (p.kind !== 'run') throw new Error(`not runnable: ${text}`);
  return p.args;
};

describe('resolveNames', () => {
  let store: Store;
  beforeEach(async () => {
    store = createSqliteStore({ path: ':memory:' });
    await store.known.remember('prod', [
      { kind: 'server', id: '101', name: 'web-1.example.net' },
      { kind: 'server', id: '102', name: 'db-1.example.net' },
      { kind: 'sg', id: '7', name: 'web-default' },
      { kind: 'worker', id: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b66', name: 'docs-site' },
    ], T0);
  });
  afterEach(() => store.close());

  it('accepts a name at parse time and turns it into the id of the admitted account', async () => {
    const args = parsedArgs('server status WEB-1.example.net');
    expect(args.server).toBe('WEB-1.example.net');
    expect(await resolveNames(store.known, op('server.status'), args, 'prod')).toEqual({ ok: true, args: { server: '101', watch: false } });
  });

  it('takes a hostname’s first label when it names one known server', async () => {
    expect(await resolveNames(store.known, op('server.ips'), parsedArgs('server ips web-1'), 'prod')).toMatchObject({ ok: true, args: { server: '101' } });
  });

  it('resolves groups to numbers and workers to uuids', async () => {
    expect(await resolveNames(store.known, op('sg.show'), parsedArgs('sg show web-default'), 'prod')).toEqual({ ok: true, args: { id: 7 } });
    expect(await resolveNames(store.known, op('worker.status'), parsedArgs('worker status docs-site'), 'prod')).toMatchObject({
      ok: true,
      args: { worker: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b66' },
    });
  });

  it('leaves ids alone and needs no store for them', async () => {
    expect(await resolveNames(undefined, op('server.status'), parsedArgs('server status 101'), 'prod')).toMatchObject({ ok: true, args: { server: '101' } });
    expect(await resolveNames(undefined, op('sg.show'), parsedArgs('sg show 7'), 'prod')).toEqual({ ok: true, args: { id: 7 } });
  });

  it('refuses an unknown name with the nearest known one', async () => {
    const r = await resolveNames(store.known, op('server.status'), parsedArgs('server status web-2.example.net'), 'prod');
    expect(r).toEqual({
      ok: false,
      message: "I don't know a server named `web-2.example.net` here; did you mean `web-1.example.net`? (see `/cloud server known`)",
    });
    const far = await resolveNames(store.known, op('sg.show'), parsedArgs('sg show mail'), 'prod');
    expect(far).toEqual({ ok: false, message: "I don't know a security group named `mail` here (see `/cloud sg known`)" });
  });

  it('never resolves a name seen only on another account', async () => {
    const r = await resolveNames(store.known, op('server.status'), parsedArgs('server status web-1.example.net'), 'staging');
    expect(r).toMatchObject({ ok: false });
    expect(!r.ok && r.message).toMatch(/^I don't know a server named `web-1.example.net` here \(see/);
  });

  it('refuses a name two servers share, naming their ids', async () => {
    await store.known.remember('prod', [{ kind: 'server', id: '5f0c3a1e-8b2d-4c6f-9a7e-2d4b6c8e0a11', name: 'web-1.example.net' }], T0 + 1);
    const r = await resolveNames(store.known, op('server.status'), parsedArgs('server status web-1.example.net'), 'prod');
    expect(r).toEqual({
      ok: false,
      message:
        '`web-1.example.net` could be 2 servers here: `5f0c3a1e-8b2d-4c6f-9a7e-2d4b6c8e0a11` (seen in an answer); `101` (seen in an answer). Which one did you mean? Use its id instead of the name.',
    });
  });

  it('a server seen by its id in one answer and by its uuid in another is one server, sent by its id', async () => {
    const uuid = '5f0c3a1e-8b2d-4c6f-9a7e-2d4b6c8e0a11';
    await store.known.remember('prod', [{ kind: 'server', id: '101', uuid, name: 'web-1', via: 'server rename' }], T0 + 1);
    await store.known.remember('prod', [{ kind: 'server', id: uuid, uuid, name: 'web-1', via: 'sg show' }], T0 + 2);
    expect(await resolveNames(store.known, op('server.status'), parsedArgs('server status web-1'), 'prod')).toMatchObject({ ok: true, args: { server: '101' } });
  });

  it('keeps every name an answer taught: a reverse DNS answer does not replace the display name', async () => {
    await store.known.remember('prod', [{ kind: 'server', id: '104', name: 'frontend', via: 'server rename' }], T0 + 1);
    await store.known.remember('prod', serverFromIps('104', [{ address: '104.20.30.41', type: 'ipv4', rdns: 'staging-1.example.net' }]), T0 + 2);
    for (const name of ['frontend', 'staging-1.example.net', 'staging-1']) {
      expect(await resolveNames(store.known, op('server.status'), parsedArgs(`server status ${name}`), 'prod')).toMatchObject({ ok: true, args: { server: '104' } });
    }
  });

  it('reads an 8-character word as a known name first, else as a short uuid', async () => {
    await store.known.remember('prod', [{ kind: 'server', id: '104', name: 'stagings' }], T0);
    expect(await resolveNames(store.known, op('server.status'), parsedArgs('server status stagings'), 'prod')).toMatchObject({ ok: true, args: { server: '104' } });
    expect(await resolveNames(store.known, op('server.status'), parsedArgs('server status 5f0c3a1e'), 'prod')).toMatchObject({ ok: true, args: { server: '5f0c3a1e' } });
  });

  it('still refuses at parse time what is neither an id nor a name', () => {
    const p = parseCommand('server status ../etc', catalog);
    expect(p.kind).toBe('problem');
    expect(p.kind === 'problem' && p.problem.message).toMatch(/is not a server id.*or the name of one the bot has seen/);
  });
});

describe('remember hooks', () => {
  it('record ids and names, never anything else', () => {
    expect(serverSeen('101')).toEqual([{ kind: 'server', id: '101' }]);
    expect(serverFromIps('101', [
      { address: '2a0c::11', type: 'ipv6', rdns: 'v6.example.net' },
      { address: '185.10.20.11', type: 'ipv4', rdns: 'web-1.example.net' },
      { address: '2A0C:0::11', type: 'ipv6', rdns: null },
      { address: 'not an address', type: 'ipv4', rdns: null },
    ])).toEqual([
      { kind: 'server', id: '101', name: 'web-1.example.net', field: 'rdns' },
      // Its addresses, once each, in one written form; what is not an address is not kept.
      { kind: 'server', id: '101', name: '2a0c::11', field: 'ip' },
      { kind: 'server', id: '101', name: '185.10.20.11', field: 'ip' },
    ]);
    expect(serverFromStatus('103', { name: 'builder' })).toEqual([{ kind: 'server', id: '103', name: 'builder' }]);
    expect(serverFromStatus('103', {})).toEqual([{ kind: 'server', id: '103', name: null }]);
    expect(groupSeen({ id: 7, name: 'web-default', servers: [{ uuid: 'u-1', name: 'web-1' }] })).toEqual([
      { kind: 'sg', id: '7', name: 'web-default' },
      { kind: 'server', id: 'u-1', uuid: 'u-1', name: 'web-1' },
    ]);
    const creds = { username: 'root', root_password: 'hunter22', password_status: 'ready' };
    expect(JSON.stringify(op('server.credentials').remember!(creds, { server: '101' }))).not.toContain('hunter22');
  });

  it('a failing store is only reported, never thrown', async () => {
    const errors: unknown[] = [];
    const known = { remember: () => Promise.reject(new Error('disk full')) };
    rememberAnswer(known, op('server.status'), {}, { server: '101' }, { account: null, now: T0 }, (e) => errors.push(e));
    await new Promise((r) => setImmediate(r));
    expect(errors).toEqual([new Error('disk full')]);
  });
});
