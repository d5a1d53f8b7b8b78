/** Every error code the sandbox emits, reached through inputs or state knobs, with its status. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHOSEN_ERROR_CODES, SPEC_ERROR_CODES } from '../../src/cloud/errors.js';
import { ErrorEnvelope } from '../../src/cloud-api/schemas.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { start } from './helpers.js';
import type { Harness } from './helpers.js';

interface Row {
  code: string;
  status: number;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  setup?: (s: Sandbox) => void;
}

const worker = { name: 'w', location_id: 1, git_repository: 'https://github.com/acme/w.git' };
const lockedBackup = (s: Sandbox) => s.state.backups[101]?.find((b) => b.isLocked)?.uuid ?? 'missing';

const rows: Row[] = [
  { code: 'UNAUTHENTICATED', status: 401, method: 'GET', path: '/ssh-keys', headers: { authorization: 'Bearer wrong' } },
  { code: 'NOT_FOUND', status: 404, method: 'GET', path: '/servers/999/status' },
  { code: 'VALIDATION_ERROR', status: 422, method: 'POST', path: '/reserved-ips', body: { location_id: 1 } },
  { code: 'RESERVED_IP_LIMIT_REACHED', status: 422, method: 'POST', path: '/reserved-ips', body: { location_id: 1, subnet_id: 'sub-ams-1', quantity: 5 } },
  {
    code: 'INSUFFICIENT_BALANCE', status: 422, method: 'POST', path: '/reserved-ips', body: { location_id: 1, subnet_id: 'sub-ams-1' },
    setup: (s) => { s.state.account.balance = 0; },
  },
  { code: 'INSUFFICIENT_BALANCE', status: 422, method: 'POST', path: '/workers', body: worker, setup: (s) => { s.state.account.balance = 4.99; } },
  { code: 'SUBNET_EXHAUSTED', status: 422, method: 'POST', path: '/reserved-ips', body: { location_id: 2, subnet_id: 'sub-fra-2' } },
  { code: 'WORKER_LIMIT_REACHED', status: 422, method: 'POST', path: '/workers', body: worker, setup: (s) => { s.state.account.workersAllowed = 1; } },
  { code: 'WORKERS_DISABLED', status: 422, method: 'POST', path: '/workers', body: worker, setup: (s) => { s.state.account.workersEnabled = false; } },
  { code: 'LOCATION_UNAVAILABLE', status: 422, method: 'POST', path: '/workers', body: { ...worker, location_id: 3 } },
  { code: 'GIT_HOST_NOT_CONNECTED', status: 422, method: 'POST', path: '/workers', body: { ...worker, git_source: 'hosted_git' } },
  { code: 'SERVER_STATUS_CONFLICT', status: 409, method: 'POST', path: '/servers/103/reinstall', body: { template_slug: 'debian-12' } },
  { code: 'SERVER_STATUS_CONFLICT', status: 409, method: 'POST', path: '/servers/c2d4e6f8/backups', body: {} },
  { code: 'CANNOT_REMOVE_PRIMARY', status: 422, method: 'DELETE', path: '/servers/101/ips/185.10.20.11' },
  { code: 'HYPERVISOR_SYNC_FAILED', status: 502, method: 'POST', path: '/security-groups/7/rules', body: { type: 'inbound', action: 'ACCEPT', protocol: 'icmp' }, setup: (s) => s.failNextSyncs(1) },
  { code: 'HYPERVISOR_SYNC_FAILED', status: 502, method: 'POST', path: '/security-groups/7/deploy', setup: (s) => s.failNextSyncs(1) },
  { code: 'BACKUP_LOCKED', status: 422, method: 'DELETE', path: '/servers/101/backups/{locked}' },
  { code: 'RESOURCE_LIMIT_EXCEEDED', status: 422, method: 'POST', path: '/servers/102/backups', body: {} },
  {
    code: 'RESOURCE_LIMIT_EXCEEDED', status: 422, method: 'DELETE', path: '/servers/101/ips/185.10.20.12',
    setup: (s) => { s.state.account.ipRemovalsThisWeek = s.state.account.weeklyIpRemovalLimit; },
  },
  { code: 'ALREADY_ATTACHED', status: 422, method: 'POST', path: '/security-groups/7/servers/attach', body: { server_uuid: '5f0c3a1e' } },
  { code: 'TEMPLATE_NOT_FOUND', status: 422, method: 'POST', path: '/servers/101/reinstall', body: { template_slug: 'beos-5' } },
  { code: 'BAD_REQUEST', status: 400, method: 'POST', path: '/workers', body: 'not json at all' },
  { code: 'METHOD_NOT_ALLOWED', status: 405, method: 'DELETE', path: '/plans' },
];

let h: Harness;
beforeEach(async () => {
  h = await start();
});
afterEach(() => h.close());

describe('error codes', () => {
  it('cover every spec code and every chosen code', () => {
    const reached = new Set(rows.map((r) => r.code));
    for (const code of [...SPEC_ERROR_CODES, ...CHOSEN_ERROR_CODES]) expect(reached, code).toContain(code);
  });

  it.each(rows.map((r) => [r.code, r.status, r] as const))('%s (%i)', async (code, status, row) => {
    row.setup?.(h.sandbox);
    const path = row.path.replace('{locked}', lockedBackup(h.sandbox));
    const a =
      typeof row.body === 'string'
        ? await h.raw(row.method, path, row.body)
        : await h.call(row.method, path, row.body, row.headers ?? {});
    expect(a.status).toBe(status);
    const envelope = ErrorEnvelope.parse(a.json);
    expect(envelope.error.code).toBe(code);
    expect(envelope.error.message).toEqual(expect.any(String));
    expect(Object.keys(a.json.error).every((k) => ['code', 'message', 'details'].includes(k))).toBe(true);
  });
});
