import { describe, expect, it } from 'vitest';
import { MASK, maskedArgs, maskedRequest, rememberSecrets, rememberSecretsIn, secretsIn, splitSecrets } from '../../src/access/secrets.js';
import { catalog } from '../../src/operations/index.js';
import type { CloudClient } from '../../src/cloud/cloud-client.js';
import type { AnyOperation } from '../../src/operations/types.js';

const reinstall = catalog.byId('server.reinstall')!;
const args = { server: '101', template: 'ubuntu-24.04', password: 'Hunter2-long-pass', 'ssh-keys': undefined };

/** A change whose secret argument (`secret`) is sent under another name (`password`). */
const renamed = {
  id: 'test.renamed',
  run: ({ cloud }: { cloud: CloudClient }, a: { template: string; secret?: string }) =>
    cloud.servers.reinstall('101', { template_slug: a.template, ...(a.secret ? { password: a.secret } : {}) }),
  change: { secretArgs: ['secret'] },
} as unknown as AnyOperation;

describe('secrets', () => {
  it('splits the secret arguments off and drops undefined ones', () => {
    expect(reinstall.change?.secretArgs).toEqual(['password']);
    expect(splitSecrets(reinstall, args)).toEqual({
      plain: { server: '101', template: 'ubuntu-24.04' },
      secrets: { password: 'Hunter2-long-pass' },
    });
  });

  it('masks secret arguments and leaves the rest as they are', () => {
    expect(maskedArgs(reinstall, args)).toEqual({ server: '101', template: 'ubuntu-24.04', password: MASK });
    expect(maskedArgs(reinstall, { server: '101', template: 'debian-12' })).toEqual({ server: '101', template: 'debian-12' });
  });

  it('masks a secret in the request body, also when the body renames it', () => {
    const r = maskedRequest(reinstall, args);
    expect(r).toEqual({ method: 'POST', path: '/servers/101/reinstall', body: { template_slug: 'ubuntu-24.04', password: MASK } });
    expect(JSON.stringify(r)).not.toContain('Hunter2');
    expect(maskedRequest(renamed, { template: 'debian-12', secret: 'key-0123456789' })).toEqual({
      method: 'POST',
      path: '/servers/101/reinstall',
      body: { template_slug: 'debian-12', password: MASK },
    });
  });

  it('finds secret-like values in a result, nested, and nothing else', () => {
    const result = { id: 1, root_password: 'gen-pass-1', nested: { api_token: 'tok-2', private_key: 'k3', name: 'web' }, tags: ['password'] };
    expect(secretsIn(result).sort()).toEqual(['gen-pass-1', 'k3', 'tok-2']);
    expect(secretsIn('password')).toEqual([]);
    expect(secretsIn(null)).toEqual([]);
  });

  it('hands secrets to the logger to redact', () => {
    const added: string[] = [];
    const sink = { addSecret: (s: string) => void added.push(s) };
    rememberSecrets(sink, ['a-secret']);
    rememberSecretsIn(sink, { password: 'b-secret', status: 'ok' });
    expect(added).toEqual(['a-secret', 'b-secret']);
  });
});
