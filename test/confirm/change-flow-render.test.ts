/**
 * Rendering is a view of records (issue 22): a change's request is described once, from its
 * own `run` against a transport that sends nothing, when its record is made, and stored with
 * it (`facts.request`, secrets masked). Status edits, the watch's parent message and audit
 * entries read it from the record and run nothing. The catalog here counts every `run` that is
 * not the real send (the real client), so each description is seen.
 * Rig and helpers: change-flow-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import { MASK } from '../../src/access/secrets.js';
import { catalog } from '../../src/operations/index.js';
import type { Catalog } from '../../src/operations/catalog.js';
import type { AnyOperation } from '../../src/operations/types.js';
import { createParentRefresher } from '../../src/watch/parent-message.js';
import { ALICE, OPS, PASSWORD, TTL, audits, get, lastUpdate, makeFlow, request, rig, sent, shown, slack, store, useChangeFlowRig } from './change-flow-helpers.js';

useChangeFlowRig();

/** Catalog entries whose `run` notes every call that is not the real send: each is a description. */
function countingCatalog() {
  const described: string[] = [];
  const wrapped = new Map<string, AnyOperation>();
  const byId = (id: string): AnyOperation | undefined => {
    const op = catalog.byId(id);
    if (!op) return undefined;
    if (!wrapped.has(id)) {
      wrapped.set(id, {
        ...op,
        run: (ctx, args) => {
          if (ctx.cloud !== rig.client) described.push(op.id);
          return op.run(ctx, args);
        },
      } as AnyOperation);
    }
    return wrapped.get(id);
  };
  const counting: Catalog = { ...catalog, byId };
  return { counting, described, op: (id: string) => byId(id)! };
}

const REINSTALL_REQUEST = { method: 'POST', path: '/servers/101/reinstall', body: { template_slug: 'debian-12', password: MASK } };

describe('a change is described once, when its record is made', () => {
  it('the masked request is stored with the record; the status edits and audit entries of its whole life describe nothing again', async () => {
    const { counting, described, op } = countingCatalog();
    const flow = makeFlow({ catalog: counting });
    const out = await flow.start({ ...request('server.reinstall', { server: '101', template: 'debian-12', password: PASSWORD }), op: op('server.reinstall') });
    if (out.kind !== 'posted') throw new Error(`expected posted, got ${out.kind}`);
    expect(described).toEqual(['server.reinstall']);
    const stored = await get(out.record.id);
    expect(stored.facts.request).toStrictEqual(REINSTALL_REQUEST);
    expect(JSON.stringify(stored)).not.toContain(PASSWORD);

    expect(await flow.confirm(out.record.id, ALICE, 'web-1.example.net')).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'POST', path: '/v2/servers/101/reinstall', body: { template_slug: 'debian-12', password: PASSWORD } }]);
    // Posted, then edited running and succeeded: three renders, two audit entries, one description.
    expect(slack.updates().length).toBeGreaterThanOrEqual(2);
    expect(described).toEqual(['server.reinstall']);
    expect(shown(lastUpdate())).toContain('sent `POST /servers/101/reinstall`');
    expect((await audits()).map((a) => [a.outcome, a.detail])).toEqual([
      ['requested', 'POST /servers/101/reinstall'],
      ['succeeded', 'POST /servers/101/reinstall'],
    ]);
  });

  it("a watch's parent message is rendered twice from the record alone: no description, the stored request shown", async () => {
    const { counting, described, op } = countingCatalog();
    const flow = makeFlow({ catalog: counting });
    const out = await flow.start({ ...request('server.reinstall', { server: '101', template: 'debian-12', password: PASSWORD }), op: op('server.reinstall') });
    if (out.kind !== 'posted') throw new Error(`expected posted, got ${out.kind}`);
    await flow.confirm(out.record.id, ALICE, 'web-1.example.net');
    const now = rig.clock.now();
    const w = await store.watches.create({ kind: 'server', resource: '101', operationId: out.record.id, channelId: OPS, threadTs: out.record.messageTs, requestedBy: ALICE, intervalMs: 5000, startedAt: now, deadlineAt: now + 60_000, nextPollAt: now });
    const refresh = createParentRefresher({ operations: store.operations, catalog: counting, slack: slack.api, clock: rig.clock });
    const before = described.length;
    await refresh(w);
    await refresh(w);
    expect(described.length - before).toBe(0);
    const parent = lastUpdate();
    expect(parent.ts).toBe(out.record.messageTs);
    expect(shown(parent)).toContain('sent `POST /servers/101/reinstall`');
    expect(JSON.stringify(parent)).not.toContain(PASSWORD);
  });

  it('a dry run describes the change once and makes no record', async () => {
    const { counting, described, op } = countingCatalog();
    const flow = makeFlow({ catalog: counting });
    const out = await flow.start({ ...request('server.reinstall', { server: '101', template: 'debian-12', password: PASSWORD }, ALICE, { dryRun: true }), op: op('server.reinstall') });
    expect(out.kind).toBe('tell');
    expect(described).toEqual(['server.reinstall']);
    expect(JSON.stringify(out)).toContain(MASK);
    expect(JSON.stringify(out)).not.toContain(PASSWORD);
    expect(await store.operations.listRecent({ limit: 10 })).toEqual([]);
  });

  it('a record made before requests were stored: its messages leave out the "sent" line, its audit entry still names the request', async () => {
    const { counting, described } = countingCatalog();
    const flow = makeFlow({ catalog: counting });
    // As an older bot stored it: no facts.request.
    const made = await store.operations.create({ opId: 'server.rename', args: { server: '101', name: 'web-9' }, requestedBy: ALICE, channelId: OPS, expiresAt: rig.clock.now() + TTL });
    await store.operations.setMessage(made.record.id, OPS, '1795000000.000099');
    expect(await flow.confirm(made.record.id, ALICE)).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'PATCH', path: '/v2/servers/101/rename', body: { name: 'web-9' } }]);
    const text = shown(lastUpdate());
    expect(text).toContain('done');
    expect(text).not.toContain('sent `');
    // The audit trail keeps the request: the flow describes it there, once per entry.
    expect((await audits()).map((a) => a.detail)).toEqual(['PATCH /servers/101/rename']);
    expect(described).toEqual(['server.rename']);
  });
});
