import { describe, expect, it } from 'vitest';
import { createCatalog, usageLine } from '../../../src/operations/catalog.js';
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

  it('derives usage lines from the argument specs', () => {
    expect(usageLine(catalog.byId('backup.list')!)).toBe('/cloud backup list <server> [--page N]');
    expect(usageLine(catalog.byId('plan.list')!)).toBe('/cloud plan list [--location ID] [--page N]');
    expect(usageLine(catalog.byId('server.credentials')!)).toBe('/cloud server credentials <server>');
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
