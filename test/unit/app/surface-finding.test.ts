/** Issue 23's data: what free text names (Act on this), and what a link points at (unfurls). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findResources, FOUND_MAX } from '../../../src/app/find-resources.js';
import { readLink } from '../../../src/app/unfurl-links.js';
import { opsFor } from '../../../src/app/act-on-this.js';
import { catalog } from '../../../src/operations/index.js';
import { workerSeen } from '../../../src/operations/remember.js';
import { createSqliteStore, type Store } from '../../../src/store/index.js';

const T0 = Date.parse('2026-11-25T12:00:00Z');
const WORKER = '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b66';
const SERVER_UUID = '5f0c3a1e-8b2d-4c6f-9a7e-2d4b6c8e0a11';

describe('findResources', () => {
  let store: Store;
  beforeEach(async () => {
    store = createSqliteStore({ path: ':memory:' });
    await store.known.remember('default', [
      { kind: 'server', id: '101', uuid: SERVER_UUID, name: 'web-1.example.net', field: 'hostname' },
      { kind: 'server', id: '102', name: 'db-1' },
      { kind: 'sg', id: '7', name: 'web-default' },
      ...workerSeen({ uuid: WORKER, name: 'docs site', fqdn: 'docs-site-0d9c8b7a.workers.example.net' }),
    ], T0);
    await store.known.remember('other', [{ kind: 'server', id: '103', name: 'build-1' }], T0);
  });
  afterEach(() => store.close());
  const found = async (text: string) => (await findResources(store.known, 'default', text)).map((r) => `${r.kind}:${r.id}`);

  it('finds a hostname by its first label, a short uuid, a full uuid, a name with a space and a worker address', async () => {
    expect(await found('web-1 is slow')).toEqual(['server:101']);
    expect(await found(`alert: ${SERVER_UUID.slice(0, 8)} cpu 98%`)).toEqual(['server:101']);
    expect(await found(`uuid ${SERVER_UUID.toUpperCase()}`)).toEqual(['server:101']);
    expect(await found('the docs site build failed')).toEqual([`worker:${WORKER}`]);
    expect(await found('see https://docs-site-0d9c8b7a.workers.example.net/x')).toEqual([`worker:${WORKER}`]);
  });

  it('a number counts only next to what it is', async () => {
    expect(await found('took 101 seconds, 7 retries')).toEqual([]);
    expect(await found('server 101 and sg #7; also #102')).toEqual(['server:101', 'server:102', 'sg:7']);
    expect(await found('server 1010')).toEqual([]);
  });

  it('never part of a longer word, never another account’s, one entry per resource', async () => {
    expect(await found('web-10 and xdb-1 and web-1.example.network')).toEqual([]);
    expect(await found('build-1')).toEqual([]);
    expect(await found('web-1, web-1.example.net, server 101')).toEqual(['server:101']);
  });

  it('at most FOUND_MAX resources, however many the text names', async () => {
    await store.known.remember('default', Array.from({ length: 30 }, (_, i) => ({ kind: 'server' as const, id: String(200 + i), name: `node-${i}` })), T0);
    const text = Array.from({ length: 30 }, (_, i) => `node-${i}`).join(' ');
    expect(await found(text)).toHaveLength(FOUND_MAX);
  });
});

describe('opsFor: commands that take one resource and nothing else required', () => {
  it('offers reads and one-argument changes, never a secret or a form', () => {
    const ids = opsFor(catalog, 'server', '101').map((o) => o.id);
    expect(ids).toEqual(expect.arrayContaining(['server.status', 'server.ips', 'backup.list']));
    expect(ids).not.toContain('server.credentials');
    expect(ids).not.toContain('backup.create'); // opens a form
    expect(ids).not.toContain('server.rename'); // needs a name
    expect(opsFor(catalog, 'sg', '7').map((o) => o.id)).toEqual(expect.arrayContaining(['sg.show', 'sg.deploy']));
  });
});

describe('readLink', () => {
  const settings = { panelUrl: 'https://panel.example.com/app', workersDomain: 'workers.example.net' };
  it('reads panel pages of servers, workers and groups under the base path, and worker addresses', () => {
    expect(readLink('https://panel.example.com/app/servers/101', settings)).toEqual({ kind: 'server', id: '101' });
    expect(readLink(`https://panel.example.com/app/servers/${SERVER_UUID.slice(0, 8)}/graphs?x=1`, settings)).toEqual({ kind: 'server', id: SERVER_UUID.slice(0, 8) });
    expect(readLink(`https://PANEL.example.com/app/workers/${WORKER.toUpperCase()}`, settings)).toEqual({ kind: 'worker', id: WORKER });
    expect(readLink('https://panel.example.com/app/security-groups/7/rules', settings)).toEqual({ kind: 'sg', id: '7' });
    expect(readLink('https://Docs-Site-0d9c8b7a.workers.example.net/a/b', settings)).toEqual({ kind: 'worker', host: 'docs-site-0d9c8b7a.workers.example.net' });
  });

  it('anything else is not ours: other hosts and paths, bad ids, encoded traversal, credentials in the URL, deeper worker hosts', () => {
    for (const url of [
      'https://panel.example.com/servers/101',
      'https://panel.example.com/app/servers/..%2F..%2Faccount',
      'https://panel.example.com/app/servers/101%3Fx',
      'https://panel.example.com/app/servers/0x65',
      'https://panel.example.com/app/security-groups/0',
      'https://panel.example.com/app/workers/not-a-uuid',
      'https://panel.example.com/app/servers/%E0%A4%A',
      'https://user:pw@panel.example.com/app/servers/101',
      'https://panel.example.com.evil.net/app/servers/101',
      'ftp://panel.example.com/app/servers/101',
      'https://a.b.workers.example.net/',
      'https://workers.example.net/',
      'not a url',
    ]) expect(readLink(url, settings), url).toBeUndefined();
    expect(readLink('https://panel.example.com/app/servers/101', undefined)).toBeUndefined();
  });
});
