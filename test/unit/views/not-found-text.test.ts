/** Issue 14: a NOT_FOUND names what was not found and the command that shows such things. */
import { describe, expect, it } from 'vitest';
import { CloudApiError } from '../../../src/cloud/errors.js';
import { sshKeyIdArg } from '../../../src/operations/args.js';
import { defineOperation } from '../../../src/operations/define.js';
import { catalog } from '../../../src/operations/index.js';
import { lookedUp } from '../../../src/operations/looked-up.js';
import { describeCloudError } from '../../../src/views/cloud-error-text.js';

const notFound = new CloudApiError({ status: 404, code: 'NOT_FOUND', message: 'Server not found.' });
const op = (id: string) => catalog.byId(id)!;

describe('NOT_FOUND', () => {
  it('names the server and the command that lists the servers the bot has seen', () => {
    const t = describeCloudError(notFound, { lookedUp: lookedUp(op('server.status'), { server: '999' }) });
    expect(t.summary).toBe('Server `999` was not found in this account.');
    expect(t.nextStep).toBe('`/cloud server known` lists the servers the bot has seen.');
  });

  it('names each thing an operation looked up, with where each is listed', () => {
    const sg = describeCloudError(notFound, { lookedUp: lookedUp(op('sg.show'), { id: 7 }) });
    expect(sg.summary).toBe('Security group `7` was not found in this account.');
    expect(sg.nextStep).toContain('`/cloud sg known`');
    const worker = describeCloudError(notFound, { lookedUp: lookedUp(op('worker.status'), { worker: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b66' }) });
    expect(worker.nextStep).toContain('`/cloud worker known`');
    const backup = describeCloudError(notFound, { lookedUp: lookedUp(op('backup.delete'), { server: '101', backup: 'b7c1d2e3-0000-4000-8000-000000000001' }) });
    expect(backup.summary).toBe('Server `101` or backup `b7c1d2e3-0000-4000-8000-000000000001` was not found in this account.');
    expect(backup.nextStep).toContain('`/cloud server known`');
    expect(backup.nextStep).toContain('`/cloud backup list 101` lists its backups');
  });

  it('takes where to look from the argument, whatever the operation (a new SSH key read needs nothing more)', () => {
    const keyShow = defineOperation({ id: 'ssh-key.show', summary: 'One SSH key', tier: 'read', args: { id: sshKeyIdArg }, run: ({ cloud }) => cloud.sshKeys.list(), render: () => ({ text: '', blocks: [] }) as never });
    for (const o of [keyShow, op('ssh-key.delete')]) {
      const t = describeCloudError(notFound, { lookedUp: lookedUp(o, { id: 12 }) });
      expect(t.summary, o.id).toBe('SSH key `12` was not found in this account.');
      expect(t.nextStep, o.id).toBe('`/cloud ssh-key list` lists the account’s SSH keys.');
    }
    const rule = describeCloudError(notFound, { lookedUp: lookedUp(op('sg.delete-rule'), { id: 7, rule: 73 }) });
    expect(rule.nextStep).toContain('`/cloud sg show 7` lists its rules');
    const ip = describeCloudError(notFound, { lookedUp: lookedUp(op('server.remove-ip'), { address: '10.0.0.1' }) });
    expect(ip.nextStep).toContain('`/cloud server ips &lt;server&gt;` lists the server’s addresses');
  });

  it('says what it can when the operation looked nothing up by id', () => {
    const t = describeCloudError(notFound, { lookedUp: lookedUp(op('account.usage'), {}) });
    expect(t.summary).toBe('The cloud has no such resource in this account.');
  });
});

describe('TEMPLATE_NOT_FOUND (the API lists no OS templates)', () => {
  it('names the slug refused and slugs that are known, and the form hint names them too', () => {
    const e = new CloudApiError({ status: 422, code: 'TEMPLATE_NOT_FOUND', message: 'The OS template "debain-12" does not exist.', details: { template_slug: 'debain-12' } });
    const t = describeCloudError(e);
    expect(t.summary).toContain('`debain-12`');
    expect(t.nextStep).toMatch(/`ubuntu-24\.04`.*`debian-12`/);
    const field = catalog.byId('server.reinstall')!.change!.modal!.fields.find((f) => f.name === 'template')!;
    expect(field.hint).toMatch(/ubuntu-24\.04.*debian-12/);
  });
});
