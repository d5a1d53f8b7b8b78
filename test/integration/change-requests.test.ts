/**
 * Every change of the catalog, run against the real sandbox: the request the sandbox received
 * (method, path, body) is the request the change describes for `--dry-run`, the status
 * message's "sent …" line and the audit entry (access/secrets.ts `maskedRequest`, built on
 * operations/change-request.ts), and it is one of the endpoints of cloud/endpoints.ts with a
 * body its schema accepts. A change without a fixture here fails the test.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MASK, maskedRequest } from '../../src/access/secrets.js';
import { ENDPOINTS, splitTemplate } from '../../src/cloud/endpoints.js';
import type { Endpoint } from '../../src/cloud/endpoints.js';
import { changeRequest } from '../../src/operations/change-request.js';
import { OPERATIONS } from '../../src/operations/index.js';
import type { AnyOperation } from '../../src/operations/types.js';
import type { CloudRequest } from '../../src/domain/cloud-request.js';
import { SEED_SERVERS } from '../../src/sandbox/seed.js';
import { collect, startRig, type Rig } from './helpers.js';

const WEB = SEED_SERVERS.web;

/** Arguments as a person gives them (command-line words, or a form's values), per change. */
const FIXTURES: Record<string, (rig: Rig) => Promise<Record<string, unknown>>> = {
  'server.rename': async () => ({ server: String(WEB.id), name: 'web-1 (blue)' }),
  'server.reinstall': async () => ({ server: WEB.uuid.slice(0, 8), template: 'debian-12', 'ssh-keys': '11,13', password: 'correct-horse-battery' }),
  'server.remove-ip': async () => ({ server: String(WEB.id), address: '185.10.20.12' }),
  'backup.create': async () => ({ server: String(WEB.id), name: 'before upgrade', mode: 'suspend' }),
  'backup.delete': async (rig) => {
    const unlocked = (await collect(rig.client.backups.all(String(WEB.id)))).find((b) => !b.is_locked);
    return { server: String(WEB.id), backup: unlocked!.uuid.toUpperCase() };
  },
  'sg.add-rule': async () => ({ id: '7', type: 'in', action: 'allow', protocol: 'tcp', source: '198.51.100.0/24', port: '8443', comment: 'admin UI', priority: '15' }),
  'sg.delete-rule': async () => ({ id: '7', rule: '73' }),
  'sg.attach': async () => ({ id: '8', server: WEB.uuid }),
  'sg.deploy': async () => ({ id: '7' }),
  'ssh-key.delete': async () => ({ id: '12' }),
  'ip.reserve': async () => ({ location: '1', subnet: 'sub-ams-1', quantity: '2' }),
  'worker.deploy': async () => ({
    name: 'blog',
    location: '1',
    repo: 'https://github.com/acme/blog.git',
    branch: 'main',
    'build-pack': 'static',
    'publish-dir': 'dist',
    spa: true,
  }),
};

/** Changes that reach the cloud; a `local` one (a schedule's Confirm card) sends nothing, checked below. */
const CHANGES = OPERATIONS.filter((op) => op.change && !op.change.local);
const LOCAL_CHANGES = OPERATIONS.filter((op) => op.change?.local);
/** Endpoints the changes below reached (the last test wants every mutating one). */
const reached = new Set<string>();

/** Validated arguments, as the router and the form hand them to the change flow. */
function argsOf(op: AnyOperation, raw: Record<string, unknown>): Record<string, unknown> {
  const parsed = op.schema.safeParse(raw);
  if (!parsed.success) throw new Error(`${op.id}: fixture does not parse: ${parsed.error.message}`);
  const checked = op.change!.check?.(parsed.data) ?? { ok: true as const, args: parsed.data };
  if (!checked.ok) throw new Error(`${op.id}: fixture fails the check: ${JSON.stringify(checked.fieldErrors)}`);
  return checked.args as Record<string, unknown>;
}

/** The endpoint of the table a request addresses. */
function endpointOf(r: CloudRequest): Endpoint | undefined {
  return Object.values(ENDPOINTS).find((e: Endpoint) => {
    const { literals } = splitTemplate(e.template);
    const re = new RegExp(`^${literals.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}$`);
    return e.method === r.method && re.test(r.path);
  });
}

describe('every change sends exactly the request it describes', () => {
  let rig: Rig;
  beforeEach(async () => {
    rig = await startRig();
  });
  afterEach(async () => {
    await rig.close();
  });

  it('every change of the catalog has a fixture here, and no fixture is stale', () => {
    expect(CHANGES.length).toBeGreaterThan(0);
    expect(Object.keys(FIXTURES).sort()).toEqual(CHANGES.map((op) => op.id).sort());
  });

  it('the only changes that send nothing to the cloud are the schedule confirmation cards', () => {
    // A new `local` change is reviewed here: it must really send nothing (its Confirm arms the bot's own state).
    expect(LOCAL_CHANGES.map((op) => op.id).sort()).toEqual(['schedule.confirm', 'schedule.confirm-spend']);
  });

  it.each(CHANGES.map((op) => [op.id, op] as const))('%s', async (_id, op) => {
    const fixture = FIXTURES[op.id];
    if (!fixture) throw new Error(`${op.id}: add a fixture to FIXTURES`);
    const args = argsOf(op, await fixture(rig));
    const described = changeRequest(op, args);

    const endpoint = endpointOf(described);
    expect(endpoint, `${op.id}: ${described.method} ${described.path} is in cloud/endpoints.ts`).toBeDefined();
    reached.add(`${endpoint!.method} ${endpoint!.template}`);
    if (endpoint!.body) expect(endpoint!.body.safeParse(described.body).success, `${op.id}: body fits ${endpoint!.template}`).toBe(true);
    else expect(described.body).toBeUndefined();

    const mark = rig.sandbox.requests.length;
    await op.run({ cloud: rig.client, clock: rig.clock }, args);
    const received = rig.since(mark);
    expect(received).toHaveLength(1);
    const [got] = received;
    const sent: CloudRequest = {
      method: got!.method as CloudRequest['method'],
      path: got!.rawPath.replace(/^\/v2/, ''),
      ...(got!.body === undefined ? {} : { body: got!.body as Record<string, unknown> }),
    };
    expect(got!.query).toEqual({});
    expect(sent).toStrictEqual(described);

    // What dry-run, the status message and the audit show: the same request, secret values masked.
    const secretValues = new Set((op.change!.secretArgs ?? []).map((n) => args[n]).filter((v) => typeof v === 'string'));
    const masked = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' && secretValues.has(v) ? MASK : v]));
    expect(maskedRequest(op, args)).toStrictEqual(sent.body ? { ...sent, body: masked(sent.body) } : sent);
  });

  it('the reinstall password is sent, and shown only masked', async () => {
    const op = OPERATIONS.find((o) => o.id === 'server.reinstall')!;
    const args = argsOf(op, await FIXTURES['server.reinstall']!(rig));
    const shown = maskedRequest(op, args);
    expect(shown.body).toStrictEqual({ template_slug: 'debian-12', password: MASK, ssh_key_ids: [11, 13] });
    const mark = rig.sandbox.requests.length;
    await op.run({ cloud: rig.client, clock: rig.clock }, args);
    expect(rig.since(mark)[0]!.body).toStrictEqual({ ...shown.body, password: 'correct-horse-battery' });
  });

  // Runs after the changes above (tests of a file run in order).
  it('together the changes reach every mutating endpoint of the table', () => {
    const mutating = Object.values(ENDPOINTS).filter((e) => e.method !== 'GET').map((e) => `${e.method} ${e.template}`);
    expect([...reached].sort()).toEqual(mutating.sort());
  });
});
