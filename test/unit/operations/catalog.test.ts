import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCatalog } from '../../../src/operations/catalog.js';
import { catalog, OPERATIONS, RESOURCES } from '../../../src/operations/index.js';
import { WATCH_KINDS } from '../../../src/operations/watch-kinds.js';

describe('catalog', () => {
  it('has one entry per operation id, each with a tier, summary and renderer', () => {
    const ids = OPERATIONS.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of OPERATIONS) {
      expect(['read', 'change', 'billing', 'destroy', 'secret']).toContain(op.tier);
      expect(op.summary.length).toBeGreaterThan(10);
      expect(typeof op.render).toBe('function');
      expect(catalog.find(op.resource, op.verb)).toBe(op);
    }
  });

  it('registers entries one way: each entries file exports its operations as one array, listed once', async () => {
    const dir = resolve(__dirname, '../../../src/operations/entries');
    const listed: unknown[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
      const exports = Object.values((await import(resolve(dir, file))) as Record<string, unknown>);
      const ops = exports.filter((v) => !Array.isArray(v) && OPERATIONS.includes(v as never));
      const arrays = exports.filter((v): v is unknown[] => Array.isArray(v) && v.some((x) => OPERATIONS.includes(x as never)));
      if (ops.length === 0 && arrays.length === 0) continue; // a helper file (worker-deploy-args.ts)
      expect(arrays, `${file} exports one array of entries`).toHaveLength(1);
      expect(new Set(arrays[0]), `${file}: its array is exactly its own operations`).toEqual(new Set(ops));
      listed.push(...arrays[0]!);
    }
    expect(new Set(listed)).toEqual(new Set(OPERATIONS));
    expect(listed).toHaveLength(OPERATIONS.length);
  });

  it('derives usage lines from the argument specs', () => {
    expect(catalog.usage(catalog.byId('backup.list')!)).toBe('/cloud backup list <server> [--page N]');
    expect(catalog.usage(catalog.byId('plan.list')!)).toBe('/cloud plan list [--location ID] [--page N]');
    expect(catalog.usage(catalog.byId('server.credentials')!)).toBe('/cloud server credentials <server>');
  });

  it('keeps each catalog’s default verbs to itself', () => {
    const auditList = catalog.byId('audit.list')!;
    const backupList = catalog.byId('backup.list')!;
    // A second catalog where `backup` defaults to list and `audit` has no default verb.
    const other = createCatalog(
      RESOURCES.map((r) => (r.name === 'backup' ? { ...r, defaultVerb: 'list' } : r.name === 'audit' ? { name: r.name, title: r.title, aliases: r.aliases } : r)),
      OPERATIONS,
      catalog.watchKinds,
    );
    expect(other.usage(backupList)).toBe('/cloud backup <server> [--page N]');
    expect(other.usage(auditList)).toBe('/cloud audit list [--user U…] [--limit N]');
    expect(catalog.usage(backupList)).toBe('/cloud backup list <server> [--page N]');
    expect(catalog.usage(auditList)).toBe('/cloud audit [--user U…] [--limit N]');
  });

  it('keeps secrets ephemeral and reads non-mutating', () => {
    const creds = catalog.byId('server.credentials')!;
    expect(creds).toMatchObject({ tier: 'secret', secret: true, ephemeral: true, mutates: false });
    for (const op of OPERATIONS.filter((o) => o.tier === 'read')) expect(op).toMatchObject({ ephemeral: true, mutates: false });
    expect(catalog.byId('account.invoices')).toMatchObject({ tier: 'billing', mutates: false, ephemeral: true });
  });

  it('declares what the provider’s API does not offer, never over an operation it does', () => {
    expect(catalog.notOffered('ssh-key', 'CREATE')?.what).toBe('create SSH keys');
    expect(catalog.notOffered('ssh-key', 'list')).toBeUndefined();
    const clash = RESOURCES.map((r) => (r.name === 'ssh-key' ? { ...r, notOffered: [{ verbs: ['delete'], what: 'x', instead: 'y' }] } : r));
    expect(() => createCatalog(clash, OPERATIONS, WATCH_KINDS)).toThrow(/ssh-key.delete is an operation/);
  });

  it('resolves aliases to resources', () => {
    expect(catalog.resolveResource('FIREWALL')).toBe('sg');
    expect(catalog.resolveResource('keys')).toBe('ssh-key');
    expect(catalog.resolveResource('nope')).toBeUndefined();
  });
});
