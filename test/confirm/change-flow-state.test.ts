/**
 * The change flow's state machine, driven directly (no Bolt, no Slack payloads): a manual
 * clock, a chat fake that records every call and can refuse, the real cloud client against
 * the in-process sandbox, a real SQLite file, the real sealer and auditor.
 * pending → confirmed → running → succeeded | failed, or cancelled | expired; Retry sync;
 * recovery after a crash.
 */
import { existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditor } from '../../src/audit/auditor.js';
import type { AuditEntry } from '../../src/audit/types.js';
import { SlackApiError, type MessageArgs, type SlackApi } from '../../src/chat/slack-api.js';
import { STALE_RUNNING_MS } from '../../src/confirm/upkeep.js';
import { StoreUnavailableError } from '../../src/store/errors.js';
import { createChangeFlow, type ChangeFlow, type ChangeFlowDeps } from '../../src/confirm/change-flow.js';
import { createLogger } from '../../src/log.js';
import { catalog } from '../../src/operations/index.js';
import type { AnyOperation } from '../../src/operations/types.js';
import { createSealer, type Store } from '../../src/store/index.js';
import { md } from '../../src/views/mrkdwn.js';
import { startRig, type Rig } from '../integration/helpers.js';
import { tempStores } from '../store/helpers.js';

const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const CAROL = 'U0CAROL';
const OPS = 'C0OPS';
const TTL = 10 * 60_000;
const PASSWORD = 'Pw-sealed-7f3kQz9x';

// ── the chat fake ───────────────────────────────────────────────────────────────────────────

type Call =
  | { method: 'postMessage'; args: MessageArgs }
  | { method: 'update'; args: { channel: string; ts: string; text: string; blocks: unknown[] } }
  | { method: 'postEphemeral'; args: { channel: string; user: string; text: string; blocks: unknown[] } }
  | { method: 'deleteMessage'; args: { channel: string; ts: string } };

function fakeSlack() {
  const calls: Call[] = [];
  const refusals = new Map<string, string>();
  let seq = 0;
  const gate = (method: string) => {
    const code = refusals.get(method);
    if (code) throw new SlackApiError(code, `chat.${method}`);
  };
  const api: SlackApi = {
    async postMessage(args) {
      calls.push({ method: 'postMessage', args });
      gate('postMessage');
      return { channel: args.channel, ts: `1795000000.${String(++seq).padStart(6, '0')}` };
    },
    async update(args) {
      calls.push({ method: 'update', args });
      gate('update');
    },
    async deleteMessage(args) {
      calls.push({ method: 'deleteMessage', args });
    },
    async postEphemeral(args) {
      calls.push({ method: 'postEphemeral', args });
      gate('postEphemeral');
    },
    openView: () => Promise.reject(new Error('no views in these tests')),
    updateView: () => Promise.reject(new Error('no views in these tests')),
    publishView: () => Promise.reject(new Error('no views in these tests')),
    usergroupMembers: async () => [],
  };
  return {
    api,
    calls,
    /** From now on, `method` is refused with Slack's `code`. */
    refuse: (method: 'postMessage' | 'update' | 'postEphemeral', code: string) => refusals.set(method, code),
    updates: () => calls.flatMap((c) => (c.method === 'update' ? [c.args] : [])),
    posts: () => calls.flatMap((c) => (c.method === 'postMessage' ? [c.args] : [])),
  };
}

/** What a person reads: the notification text and every mrkdwn/plain text in the blocks. */
function shown(m: { text: string; blocks?: unknown[] }): string {
  const out = [m.text];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if ((o.type === 'mrkdwn' || o.type === 'plain_text') && typeof o.text === 'string') out.push(o.text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
      else Object.values(o).forEach(walk);
    }
  };
  walk(m.blocks ?? []);
  return out.join('\n');
}

const buttons = (m: { blocks?: unknown[] }) => (JSON.stringify(m.blocks ?? []).match(/"action_id":"op_[a-z_]+"/g) ?? []).map((s) => s.slice(13, -1));

// ── the rig ─────────────────────────────────────────────────────────────────────────────────

let rig: Rig;
let stores: ReturnType<typeof tempStores>;
let dbPath: string;
let store: Store;
let slack: ReturnType<typeof fakeSlack>;
let logLines: string[];
let flow: ChangeFlow;
let watches: unknown[];

const sealer = createSealer(['xoxb-test-bot-token', 'tok-SECRET-abc123xyz']);

function makeFlow(over: Partial<ChangeFlowDeps> = {}, onStore: Store = store): ChangeFlow {
  const logger = createLogger({ level: 'debug', sink: (l) => logLines.push(l) });
  return createChangeFlow({
    store: onStore.operations,
    cloudFor: () => rig.client,
    clock: rig.clock,
    logger,
    slack: slack.api,
    sealer,
    catalog,
    confirmTtlMs: TTL,
    auditor: createAuditor({ store: onStore.audit, logger, clock: rig.clock }),
    startWatch: async (input) => {
      watches.push(input);
    },
    ...over,
  });
}

beforeEach(async () => {
  rig = await startRig();
  stores = tempStores();
  dbPath = stores.file();
  store = stores.open(dbPath, rig.clock);
  slack = fakeSlack();
  logLines = [];
  watches = [];
  flow = makeFlow();
});
afterEach(async () => {
  await stores.cleanup();
  await rig.close();
});

/** Arguments as the router hands them over: parsed by the entry's schema (and its check). */
function request(opId: string, raw: Record<string, unknown>, userId = ALICE, extra: { dedupeKey?: string; dryRun?: boolean } = {}) {
  const op = catalog.byId(opId)!;
  let args = op.schema.parse(raw) as Record<string, unknown>;
  const checked = op.change?.check?.(args);
  if (checked) {
    if (!checked.ok) throw new Error(`bad test arguments: ${JSON.stringify(checked.fieldErrors)}`);
    args = checked.args as Record<string, unknown>;
  }
  return { op: op as AnyOperation, args, userId, channelId: OPS, teamId: 'T0ACME', ...extra };
}

/** What the cloud received besides reads: method, wire path and body. */
const sent = () => rig.sandbox.requests.filter((r) => r.method !== 'GET').map((r) => ({ method: r.method, path: r.rawPath, body: r.body }));
const reads = () => rig.sandbox.requests.filter((r) => r.method === 'GET').map((r) => r.rawPath);

async function posted(req: ReturnType<typeof request>) {
  const out = await flow.start(req);
  if (out.kind !== 'posted') throw new Error(`expected posted, got ${JSON.stringify(out)}`);
  return out.record;
}

const get = async (id: string) => (await store.operations.get(id))!;
const audits = async (): Promise<AuditEntry[]> => (await store.audit.list({ limit: 100 })).reverse();
const lastUpdate = () => slack.updates().at(-1)!;

// ── start ───────────────────────────────────────────────────────────────────────────────────

describe('start', () => {
  it('without confirmation: posts "starting", sends the request once, edits to running then done', async () => {
    const record = await posted(request('sg.deploy', { id: '7' }));
    expect(record.status).toBe('succeeded');
    expect(sent()).toEqual([{ method: 'POST', path: '/v2/security-groups/7/deploy', body: undefined }]);

    expect(slack.calls.map((c) => c.method)).toEqual(['postMessage', 'update', 'update']);
    const [first] = slack.posts();
    expect(first!.channel).toBe(OPS);
    expect(first!.text).toBe('Deploy security group 7: starting');
    expect(buttons(first!)).toEqual([]);
    const [running, done] = slack.updates();
    expect(running!.ts).toBe(record.messageTs);
    expect(running!.text).toBe('Deploy security group 7: running');
    expect(done!.text).toBe('Deploy security group 7: done');
    expect(shown(done!)).toContain('Security group `7` is deployed: its saved rules apply on every node of its servers.');
    expect(shown(done!)).toContain('sent `POST /security-groups/7/deploy`');
    // No Confirm was asked, so nobody is named as confirming it.
    expect(shown(done!)).not.toContain('confirmed by');

    const stored = await get(record.id);
    expect(stored).toMatchObject({ status: 'succeeded', confirmedBy: ALICE, messageTs: record.messageTs, finishedAt: rig.clock.now() });
    expect((await audits()).map((a) => [a.outcome, a.detail])).toEqual([['succeeded', 'POST /security-groups/7/deploy']]);
  });

  it('with confirmation: looks first, posts "awaiting confirmation" with Confirm and Cancel, sends nothing', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    expect(record.status).toBe('pending');
    expect(reads()).toEqual(['/v2/ssh-keys']);
    expect(sent()).toEqual([]);

    expect(slack.calls.map((c) => c.method)).toEqual(['postMessage']);
    const msg = slack.posts()[0]!;
    expect(msg.text).toBe('Delete SSH key `11` (`alice@laptop`): awaiting confirmation');
    expect(shown(msg)).toContain(':warning: *Delete SSH key `11` (`alice@laptop`)* — awaiting confirmation');
    expect(shown(msg)).toContain('• Servers already set up with it keep it; it can no longer be chosen for new installs.');
    expect(shown(msg)).toContain(`Requested by <@${ALICE}> · expires in 10 minutes`);
    expect(buttons(msg)).toEqual(['op_confirm', 'op_cancel']);

    expect(await get(record.id)).toMatchObject({ status: 'pending', expiresAt: rig.clock.now() + TTL, facts: { name: 'alice@laptop' }, messageTs: '1795000000.000001' });
    expect((await audits()).map((a) => [a.outcome, a.userId, a.operationId])).toEqual([['requested', ALICE, record.id]]);
  });

  it('a dry run tells the exact request and touches nothing', async () => {
    const out = await flow.start(request('ssh-key.delete', { id: '11' }, ALICE, { dryRun: true }));
    expect(out.kind).toBe('tell');
    if (out.kind === 'tell') expect(shown(out.reply)).toContain('*Dry run — nothing was sent.* Delete SSH key `11` would send:\n`DELETE /ssh-keys/11`');
    expect(rig.sandbox.requests).toEqual([]);
    expect(slack.calls).toEqual([]);
    expect(await store.operations.listRecent({ limit: 10 })).toEqual([]);
  });

  it('a precheck refusal is told privately and audited; no record, no message', async () => {
    const out = await flow.start(request('ssh-key.delete', { id: '99' }));
    expect(out.kind).toBe('tell');
    if (out.kind === 'tell') expect(shown(out.reply)).toContain('The account has no SSH key `99`.');
    expect(sent()).toEqual([]);
    expect(slack.calls).toEqual([]);
    expect(await store.operations.listRecent({ limit: 10 })).toEqual([]);
    expect((await audits()).map((a) => [a.outcome, a.errorCode])).toEqual([['failed', 'REFUSED_BEFORE_ASKING']]);
  });

  it('a retried delivery (same dedupe key) is a duplicate: one record, one message', async () => {
    const first = await flow.start(request('ssh-key.delete', { id: '11' }, ALICE, { dedupeKey: 'cmd:trigger-1' }));
    const again = await flow.start(request('ssh-key.delete', { id: '11' }, ALICE, { dedupeKey: 'cmd:trigger-1' }));
    expect(first.kind).toBe('posted');
    expect(again).toEqual({ kind: 'duplicate' });
    expect(slack.posts()).toHaveLength(1);
    expect(await store.operations.listRecent({ limit: 10 })).toHaveLength(1);
  });

  it('not_in_channel: nothing reaches the cloud, the record is cancelled, the requester is told to invite the bot', async () => {
    slack.refuse('postMessage', 'not_in_channel');
    const out = await flow.start(request('sg.deploy', { id: '7' }));
    expect(out.kind).toBe('tell');
    if (out.kind === 'tell') {
      expect(out.reply.text).toBe('I cannot post in this channel, so nothing was done.');
      expect(shown(out.reply)).toContain('Invite me with `/invite @cloudbot`');
      expect(shown(out.reply)).toContain('Slack said `not_in_channel`.');
    }
    expect(rig.sandbox.requests).toEqual([]);
    const [r] = await store.operations.listRecent({ limit: 10 });
    expect(r).toMatchObject({ status: 'cancelled', errorCode: 'NOT_IN_CHANNEL', messageTs: null });
  });

  it('another Slack failure while posting: nothing is sent, the record is cancelled with the reason, the requester is told why', async () => {
    slack.refuse('postMessage', 'invalid_blocks');
    const out = await flow.start(request('sg.deploy', { id: '7' }));
    expect(out.kind).toBe('tell');
    if (out.kind === 'tell') {
      expect(out.reply.text).toBe('I could not post the status message, so nothing was sent to the cloud.');
      expect(shown(out.reply)).toContain('Slack did not accept it (`invalid_blocks`)');
    }
    expect(rig.sandbox.requests).toEqual([]);
    const [r] = await store.operations.listRecent({ limit: 10 });
    expect(r).toMatchObject({ status: 'cancelled', errorCode: 'STATUS_NOT_POSTED', errorMessage: 'Slack refused chat.postMessage: invalid_blocks', messageTs: null });
  });

  it('a VALIDATION_ERROR before anything changed comes back as field errors for the form', async () => {
    rig.sandbox.addFault({ method: 'PATCH', path: '/servers/101/rename', code: 'VALIDATION_ERROR', status: 422, details: { name: ['The name has a character that is not allowed.'] } });
    const out = await flow.start(request('server.rename', { server: '101', name: 'web one' }));
    expect(out).toEqual({ kind: 'invalid', fieldErrors: { name: 'The name has a character that is not allowed.' } });
    expect(sent()).toEqual([{ method: 'PATCH', path: '/v2/servers/101/rename', body: { name: 'web one' } }]);
    expect((await store.operations.listRecent({ limit: 10 }))[0]).toMatchObject({ status: 'failed', errorCode: 'VALIDATION_ERROR' });
  });
});

// ── confirm ─────────────────────────────────────────────────────────────────────────────────

describe('confirm', () => {
  it('the cloud did it but the store cannot record it: the message still says done and the audit keeps "succeeded"', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    const operations = store.operations;
    // The store is held by something else exactly when the outcome is written.
    const failing: Store = {
      ...store,
      operations: {
        ...operations,
        transition: (id, t) => (t.to === 'succeeded' ? Promise.reject(new StoreUnavailableError('locked', 'sqlite', 'the database is locked')) : operations.transition(id, t)),
      },
    };
    const flaky = makeFlow({}, failing);
    expect(await flaky.confirm(record.id, ALICE)).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);
    expect(lastUpdate().text).toBe('Delete SSH key `11` (`alice@laptop`): done');
    expect((await audits()).map((a) => a.outcome)).toEqual(['requested', 'succeeded']);
    expect(logLines.some((l) => l.includes('the change succeeded but its record could not be updated'))).toBe(true);
  });

  it('the requester confirms: one DELETE, then the message reads running, then done', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await rig.clock.advance(4000);
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);

    const [running, done] = slack.updates();
    expect(running!.text).toBe('Delete SSH key `11` (`alice@laptop`): running');
    expect(shown(running!)).toContain(`confirmed by <@${ALICE}>`);
    expect(buttons(running!)).toEqual([]);
    expect(done!.text).toBe('Delete SSH key `11` (`alice@laptop`): done');
    expect(shown(done!)).toContain('SSH key `11` is deleted.');
    expect(shown(done!)).toContain(`Requested by <@${ALICE}> · confirmed by <@${ALICE}> · took 0 seconds · sent \`DELETE /ssh-keys/11\``);
    expect(buttons(done!)).toEqual([]);
    expect(slack.updates().every((u) => u.ts === record.messageTs && u.channel === OPS)).toBe(true);

    expect(await get(record.id)).toMatchObject({ status: 'succeeded', confirmedBy: ALICE, confirmedAt: record.createdAt + 4000, result: { text: 'SSH key `11` is deleted.' } });
    expect((await audits()).map((a) => [a.outcome, a.confirmedBy, a.detail])).toEqual([
      ['requested', null, 'DELETE /ssh-keys/11'],
      ['succeeded', ALICE, 'DELETE /ssh-keys/11'],
    ]);
  });

  it('a second click after it is done sends nothing and says who acted', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await flow.confirm(record.id, ALICE);
    const updates = slack.updates().length;
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'tell', text: 'Already done: confirmed by you.' });
    expect(sent()).toHaveLength(1);
    expect(slack.updates()).toHaveLength(updates);
  });

  it('two Confirms at once: one request; the other clicker is told who acted', async () => {
    const anyone = makeFlow({ authorize: async () => undefined });
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    const [a, b] = await Promise.all([anyone.confirm(record.id, ALICE), anyone.confirm(record.id, BOB)]);
    expect(a).toEqual({ kind: 'done' });
    expect(b).toEqual({ kind: 'tell', text: `Already confirmed by <@${ALICE}>; it is running.` });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);
    expect((await get(record.id)).confirmedBy).toBe(ALICE);
  });

  it('two replicas on the same database file: one request between them', async () => {
    const other = stores.open(dbPath, rig.clock);
    const replica = makeFlow({}, other);
    const record = await posted(request('ssh-key.delete', { id: '12' }));
    const outcomes = await Promise.all([flow.confirm(record.id, ALICE), replica.confirm(record.id, ALICE)]);
    expect(outcomes.filter((o) => o.kind === 'done')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'tell')).toHaveLength(1);
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/12', body: undefined }]);
  });

  it('someone else may not confirm (by default only the requester): nothing sent, message untouched', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    expect(await flow.confirm(record.id, BOB)).toEqual({ kind: 'tell', text: `Only <@${ALICE}> can confirm this request.` });
    expect(sent()).toEqual([]);
    expect(slack.updates()).toEqual([]);
    expect((await get(record.id)).status).toBe('pending');
  });

  it('an unknown record id is answered, not thrown', async () => {
    expect(await flow.confirm('op_AAAAAAAAAAAAAAAA', ALICE)).toEqual({ kind: 'tell', text: 'This request is no longer known to the bot.' });
    expect(await flow.cancel('op_AAAAAAAAAAAAAAAA', ALICE)).toEqual({ kind: 'tell', text: 'This request is no longer known to the bot.' });
  });
});

// ── cancel ──────────────────────────────────────────────────────────────────────────────────

describe('cancel', () => {
  it('the requester cancels: message edited to cancelled without buttons, audited, nothing sent', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    expect(await flow.cancel(record.id, ALICE)).toEqual({ kind: 'done' });
    const msg = lastUpdate();
    expect(msg.text).toBe('Delete SSH key `11` (`alice@laptop`): cancelled');
    expect(shown(msg)).toContain(`Requested by <@${ALICE}> · cancelled by <@${ALICE}>`);
    expect(shown(msg)).toContain('• Servers already set up with it keep it');
    expect(buttons(msg)).toEqual([]);
    expect(await get(record.id)).toMatchObject({ status: 'cancelled', result: { cancelledBy: ALICE }, finishedAt: rig.clock.now() });
    expect((await audits()).map((a) => [a.outcome, a.detail])).toEqual([
      ['requested', 'DELETE /ssh-keys/11'],
      ['cancelled', `cancelled by ${ALICE}`],
    ]);
    expect(sent()).toEqual([]);
  });

  it('someone else may not cancel by default', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    expect(await flow.cancel(record.id, BOB)).toEqual({ kind: 'tell', text: `Only <@${ALICE}> can cancel this request.` });
    expect((await get(record.id)).status).toBe('pending');
  });

  it('Confirm after Cancel sends nothing and says who cancelled', async () => {
    const anyone = makeFlow({ authorize: async () => undefined });
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await flow.cancel(record.id, ALICE);
    const updates = slack.updates().length;
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'tell', text: 'Cancelled by you; nothing was done.' });
    expect(await anyone.confirm(record.id, BOB)).toEqual({ kind: 'tell', text: `Cancelled by <@${ALICE}>; nothing was done.` });
    expect(sent()).toEqual([]);
    expect(slack.updates()).toHaveLength(updates);
  });

  it('Cancel after it is done changes nothing', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await flow.confirm(record.id, ALICE);
    expect(await flow.cancel(record.id, ALICE)).toEqual({ kind: 'tell', text: 'Already done: confirmed by you.' });
    expect((await get(record.id)).status).toBe('succeeded');
  });
});

// ── expiry ──────────────────────────────────────────────────────────────────────────────────

describe('expiry', () => {
  it('expireDue: nothing before the TTL; past it the record expires, the message says so, a late click does nothing', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await rig.clock.advance(TTL - 1);
    expect(await flow.expireDue()).toBe(0);
    expect(slack.updates()).toEqual([]);

    await rig.clock.advance(1);
    expect(await flow.expireDue()).toBe(1);
    expect(await get(record.id)).toMatchObject({ status: 'expired', finishedAt: rig.clock.now() });
    const msg = lastUpdate();
    expect(msg.text).toBe('Delete SSH key `11` (`alice@laptop`): expired — nothing was done');
    expect(shown(msg)).toContain(':alarm_clock: *Delete SSH key `11` (`alice@laptop`)* — expired — nothing was done');
    expect(buttons(msg)).toEqual([]);
    expect((await audits()).map((a) => a.outcome)).toEqual(['requested', 'expired']);

    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'tell', text: 'This request has expired; nothing was done. Run the command again.' });
    expect(await flow.cancel(record.id, ALICE)).toEqual({ kind: 'tell', text: 'This request has expired; nothing was done. Run the command again.' });
    expect(await flow.expireDue()).toBe(0);
    expect(sent()).toEqual([]);
    expect(slack.updates()).toHaveLength(1);
  });

  it('a click one millisecond before the TTL still works', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await rig.clock.advance(TTL - 1);
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);
  });

  it('a click past the TTL before any sweep: expired on the spot, message edited, audited, nothing sent', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await rig.clock.advance(TTL);
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'tell', text: 'This request has expired; nothing was done. Run the command again.' });
    expect((await get(record.id)).status).toBe('expired');
    expect(lastUpdate().text).toBe('Delete SSH key `11` (`alice@laptop`): expired — nothing was done');
    // The expiry is in the audit trail whichever way it was noticed (the sweep will not see it again).
    expect((await audits()).map((a) => a.outcome)).toEqual(['requested', 'expired']);
    expect(await flow.expireDue()).toBe(0);
    expect(sent()).toEqual([]);
  });
});

// ── two-person approval ─────────────────────────────────────────────────────────────────────

describe('approval by a second admin', () => {
  const admins = new Set([ALICE, CAROL]);
  const approvalFlow = () =>
    makeFlow({
      needsApproval: (op) => op.tier === 'destroy',
      authorize: async (_r, _op, userId) => (admins.has(userId) ? undefined : md`it needs the *admin* role.`),
    });

  it('the requester cannot approve, a non-admin is refused, a second admin approves once', async () => {
    flow = approvalFlow();
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    const msg = slack.posts()[0]!;
    expect(msg.text).toBe('Delete SSH key `11` (`alice@laptop`): awaiting approval by a second admin');
    expect(shown(msg)).toContain(`Needs a second admin: <@${ALICE}> cannot approve their own request.`);
    expect(shown(msg)).toContain('Approve');
    expect(buttons(msg)).toEqual(['op_confirm', 'op_cancel']);

    expect(await flow.confirm(record.id, ALICE)).toEqual({
      kind: 'tell',
      text: 'You asked for this, so another admin must approve it (two-person approval). Nothing was done.',
    });
    expect(await flow.confirm(record.id, BOB)).toEqual({ kind: 'tell', text: 'it needs the *admin* role.' });
    expect(sent()).toEqual([]);
    expect((await get(record.id)).status).toBe('pending');

    expect(await flow.confirm(record.id, CAROL)).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);
    expect(await get(record.id)).toMatchObject({ status: 'succeeded', approvedBy: CAROL, confirmedBy: CAROL, approvedAt: rig.clock.now() });
    expect(shown(lastUpdate())).toContain(`Requested by <@${ALICE}> · approved by <@${CAROL}>`);
    expect((await audits()).at(-1)).toMatchObject({ outcome: 'succeeded', userId: ALICE, approvedBy: CAROL, confirmedBy: CAROL });
  });

  it('the requester may always withdraw their own request', async () => {
    flow = makeFlow({ needsApproval: () => true, authorize: async () => md`nobody may.` });
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    expect(await flow.cancel(record.id, BOB)).toEqual({ kind: 'tell', text: 'nobody may.' });
    expect(await flow.cancel(record.id, ALICE)).toEqual({ kind: 'done' });
    expect((await get(record.id)).status).toBe('cancelled');
  });
});

// ── typed confirmation and sealed secrets (reinstall) ───────────────────────────────────────

describe('typed confirmation and secrets (reinstall)', () => {
  const reinstall = (template = 'debian-12') => request('server.reinstall', { server: '101', template, password: PASSWORD });

  /** Every byte SQLite wrote (database and write-ahead log). */
  const onDisk = () => [dbPath, `${dbPath}-wal`].filter(existsSync).map((p) => readFileSync(p).toString('latin1')).join('');

  it('the password is sealed at rest, never in plain in the record, the message, the audit or the files', async () => {
    const record = await posted(reinstall());
    const stored = await get(record.id);
    expect(stored.args).toEqual({ server: '101', template: 'debian-12' });
    expect(stored.facts).toEqual({ hostname: 'web-1.example.net', givenSecrets: ['password'] });
    expect(stored.sealedSecrets).toMatch(/^v1\./);
    expect(sealer.open(stored.sealedSecrets!)).toEqual({ password: PASSWORD });
    expect(onDisk()).not.toContain(PASSWORD);
    expect(shown(slack.posts()[0]!)).toContain('It gets the root password given in the form.');
    expect(shown(slack.posts()[0]!)).toContain('Confirming asks you to type `web-1.example.net`.');
    expect(JSON.stringify(slack.calls)).not.toContain(PASSWORD);
    expect(JSON.stringify(await audits())).not.toContain(PASSWORD);
  });

  it('Confirm first asks for the hostname; a mismatch leaves it pending and sends nothing', async () => {
    const record = await posted(reinstall());
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'type-to-confirm', expected: 'web-1.example.net', what: 'Reinstall server `101` (`web-1.example.net`) with `debian-12`' });
    expect(await flow.confirm(record.id, ALICE, 'web-1')).toEqual({ kind: 'tell', text: 'That is not `web-1.example.net`. Nothing was done; the request still waits.' });
    expect(await flow.confirm(record.id, ALICE, ' ')).toEqual({ kind: 'tell', text: 'That is not `web-1.example.net`. Nothing was done; the request still waits.' });
    const still = await get(record.id);
    expect(still.status).toBe('pending');
    expect(still.sealedSecrets).not.toBeNull();
    expect(sent()).toEqual([]);
    expect(slack.updates()).toEqual([]);
  });

  it('the hostname is matched ignoring case, as hostnames are (issue 14)', async () => {
    const record = await posted(reinstall());
    expect(await flow.confirm(record.id, ALICE, 'WEB-1.Example.NET')).toEqual({ kind: 'done' });
    expect(sent()).toHaveLength(1);
  });

  it('the right hostname sends the reinstall with the password once; then the secret is erased and the password goes to the requester only', async () => {
    const record = await posted(reinstall());
    expect(await flow.confirm(record.id, ALICE, '  web-1.example.net ')).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'POST', path: '/v2/servers/101/reinstall', body: { template_slug: 'debian-12', password: PASSWORD } }]);

    const done = await get(record.id);
    expect(done).toMatchObject({ status: 'succeeded', sealedSecrets: null });
    expect(onDisk()).not.toContain(PASSWORD);
    expect(shown(lastUpdate())).toContain('Server `101` is `reinstalling` with `debian-12`. The root password was sent privately to the requester.');
    expect(shown(lastUpdate())).toContain('sent `POST /servers/101/reinstall`');

    const privately = slack.calls.filter((c) => c.method === 'postEphemeral');
    expect(privately.map((c) => [c.args.channel, (c.args as { user: string }).user])).toEqual([[OPS, ALICE]]);
    expect(shown(privately[0]!.args)).toContain(`New root password of server \`101\`: \`${PASSWORD}\``);
    // Nothing that others can see carries it: channel posts, edits, audit entries, log lines.
    expect(JSON.stringify(slack.calls.filter((c) => c.method !== 'postEphemeral'))).not.toContain(PASSWORD);
    expect(JSON.stringify(await audits())).not.toContain(PASSWORD);
    expect(logLines.join('\n')).not.toContain(PASSWORD);
    expect((await audits()).at(-1)!.args).toMatchObject({ server: '101', template: 'debian-12' });

    expect(watches).toEqual([{ kind: 'server', resource: '101', account: null, channelId: OPS, threadTs: record.messageTs, requestedBy: ALICE, operationId: record.id }]);
  });

  it('cancel and expiry erase the sealed password too', async () => {
    const cancelled = await posted(reinstall());
    await flow.cancel(cancelled.id, ALICE);
    const expiring = await posted(reinstall());
    await rig.clock.advance(TTL);
    expect(await flow.expireDue()).toBe(1);
    expect((await get(cancelled.id)).sealedSecrets).toBeNull();
    expect((await get(expiring.id)).sealedSecrets).toBeNull();
    expect(sent()).toEqual([]);
  });
});

// ── failure ─────────────────────────────────────────────────────────────────────────────────

describe('failure', () => {
  it('the cloud refuses: failed with its code and message recorded, in words on the message, no retry button', async () => {
    rig.sandbox.addFault({ method: 'DELETE', path: '/ssh-keys/11', status: 404, code: 'NOT_FOUND', message: 'The SSH key was not found.' });
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);

    expect(await get(record.id)).toMatchObject({ status: 'failed', errorCode: 'NOT_FOUND', errorMessage: 'The SSH key was not found.' });
    const msg = lastUpdate();
    expect(msg.text).toBe('Delete SSH key `11` (`alice@laptop`): failed');
    expect(shown(msg)).toContain('SSH key `11` was not found in this account.');
    expect(shown(msg)).toContain('(code `NOT_FOUND`)');
    expect(buttons(msg)).toEqual([]);
    expect((await audits()).at(-1)).toMatchObject({ outcome: 'failed', errorCode: 'NOT_FOUND', confirmedBy: ALICE });

    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'tell', text: 'Already tried after you confirmed it; it failed. Run the command again to retry.' });
    expect(await flow.retrySync(record.id, ALICE)).toEqual({ kind: 'tell', text: 'There is nothing to sync for this request.' });
    expect(sent()).toHaveLength(1);
  });

  it('a refusal by the sandbox itself (unknown template): failed, and the sealed password is erased', async () => {
    const record = await posted(request('server.reinstall', { server: '101', template: 'no-such-os', password: PASSWORD }));
    await flow.confirm(record.id, ALICE, 'web-1.example.net');
    expect(sent()).toEqual([{ method: 'POST', path: '/v2/servers/101/reinstall', body: { template_slug: 'no-such-os', password: PASSWORD } }]);
    expect(await get(record.id)).toMatchObject({ status: 'failed', errorCode: 'TEMPLATE_NOT_FOUND', sealedSecrets: null });
    expect(shown(lastUpdate())).toContain('The cloud has no OS template `no-such-os`.');
    expect(watches).toEqual([]);
    expect(slack.calls.filter((c) => c.method === 'postEphemeral')).toEqual([]);
  });

  it('a status message that cannot be edited does not stop the change, and the clicker is shown the outcome instead', async () => {
    slack.refuse('update', 'message_not_found');
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    const out = await flow.confirm(record.id, ALICE);
    expect(out.kind).toBe('show');
    if (out.kind === 'show') {
      expect(out.reply.text).toBe('I could not update the status message in the channel, so here is the outcome: Delete SSH key `11` (`alice@laptop`): done');
      expect(shown(out.reply)).toContain('I could not update the status message in the channel: Slack did not accept it (`message_not_found`). Here is the outcome.');
    }
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);
    expect((await get(record.id)).status).toBe('succeeded');
    expect(slack.updates()).toHaveLength(2);
    expect(logLines.filter((l) => l.includes('could not update a status message'))).toHaveLength(2);
  });
});

// ── Retry sync ──────────────────────────────────────────────────────────────────────────────

describe('Retry sync after HYPERVISOR_SYNC_FAILED', () => {
  it('the change is failed with a Retry sync button; a double click sends one deploy and repairs the message', async () => {
    rig.sandbox.failNextSyncs(1);
    const record = await posted(request('sg.delete-rule', { id: '8', rule: '81' }));
    await flow.confirm(record.id, ALICE);
    expect(await get(record.id)).toMatchObject({ status: 'failed', errorCode: 'HYPERVISOR_SYNC_FAILED' });
    const failed = lastUpdate();
    expect(shown(failed)).toContain('The firewall change is saved, but it is not applied on every node yet.');
    expect(buttons(failed)).toEqual(['op_retry_sync']);

    const [a, b] = await Promise.all([flow.retrySync(record.id, ALICE), flow.retrySync(record.id, ALICE)]);
    expect(a).toEqual({ kind: 'tell', text: ':white_check_mark: Security group 8 is synced to every node now.' });
    expect(b).toEqual({ kind: 'tell', text: 'Someone else is retrying this already.' });
    // Never the DELETE again: only the deploy.
    expect(sent()).toEqual([
      { method: 'DELETE', path: '/v2/security-groups/8/rules/81', body: undefined },
      { method: 'POST', path: '/v2/security-groups/8/deploy', body: undefined },
    ]);

    const repaired = lastUpdate();
    expect(repaired.text).toBe('Delete rule #81 from security group 8 (`db-internal`): done');
    expect(shown(repaired)).toContain(`Saved, and synced to every node after a retry by <@${ALICE}>.`);
    // The request line names what was actually sent, the retry's deploy included (issue 14).
    expect(shown(repaired)).toContain('sent `DELETE /security-groups/8/rules/81` then `POST /security-groups/8/deploy`');
    expect(buttons(repaired)).toEqual([]);
    expect(slack.updates().map((u) => u.text.split(': ').at(-1))).toEqual(['running', 'failed', 'running', 'done']);
    expect(await get(record.id)).toMatchObject({ status: 'succeeded', errorCode: null, errorMessage: null });
    expect((await audits()).map((e) => [e.outcome, e.errorCode, e.detail])).toEqual([
      ['requested', null, 'DELETE /security-groups/8/rules/81'],
      ['failed', 'HYPERVISOR_SYNC_FAILED', 'DELETE /security-groups/8/rules/81'],
      ['succeeded', null, `retry sync by ${ALICE}: POST /security-groups/8/deploy`],
    ]);
    expect(await flow.retrySync(record.id, ALICE)).toEqual({ kind: 'tell', text: 'There is nothing to sync for this request.' });
    expect(sent()).toHaveLength(2);
  });

  it('a retry that fails again leaves it failed with the button; the next retry succeeds', async () => {
    rig.sandbox.failNextSyncs(2);
    const record = await posted(request('sg.deploy', { id: '7' }));
    expect((await get(record.id)).errorCode).toBe('HYPERVISOR_SYNC_FAILED');
    const again = await flow.retrySync(record.id, ALICE);
    expect(again).toMatchObject({ kind: 'tell' });
    if (again.kind === 'tell') expect(again.text).toMatch(/^The sync failed again: The firewall change is saved, but it is not applied on every node yet\./);
    expect(await get(record.id)).toMatchObject({ status: 'failed', errorCode: 'HYPERVISOR_SYNC_FAILED' });
    expect(buttons(lastUpdate())).toEqual(['op_retry_sync']);

    expect(await flow.retrySync(record.id, ALICE)).toEqual({ kind: 'tell', text: ':white_check_mark: Security group 7 is synced to every node now.' });
    expect(sent().map((r) => `${r.method} ${r.path}`)).toEqual(Array(3).fill('POST /v2/security-groups/7/deploy'));
  });

  it('only the requester may retry by default; nothing is sent for anyone else', async () => {
    rig.sandbox.failNextSyncs(1);
    const record = await posted(request('sg.deploy', { id: '7' }));
    expect(await flow.retrySync(record.id, BOB)).toEqual({ kind: 'tell', text: `Only <@${ALICE}> can retry this request.` });
    expect(sent()).toHaveLength(1);
    expect((await get(record.id)).status).toBe('failed');
  });
});

// ── recovery after a crash ──────────────────────────────────────────────────────────────────

describe('recoverInterrupted', () => {
  it('records left confirmed or running are failed as INTERRUPTED, messages edited; others untouched', async () => {
    const running = await posted(request('server.reinstall', { server: '101', template: 'debian-12', password: PASSWORD }));
    const confirmed = await posted(request('ssh-key.delete', { id: '12' }));
    const waiting = await posted(request('ssh-key.delete', { id: '13' }));
    const now = rig.clock.now();
    // The bot stopped between claiming and finishing: the store says so, nothing was sent.
    await store.operations.transition(running.id, { from: ['pending'], to: 'confirmed', now, patch: { confirmedBy: ALICE, confirmedAt: now } });
    await store.operations.transition(running.id, { from: ['confirmed'], to: 'running', now });
    await store.operations.transition(confirmed.id, { from: ['pending'], to: 'confirmed', now, patch: { confirmedBy: ALICE, confirmedAt: now } });

    await rig.clock.advance(30_000);
    const restarted = makeFlow();
    // Another replica could still be running them: left alone until they are stale.
    expect(await restarted.recoverInterrupted()).toBe(0);
    expect((await get(running.id)).status).toBe('running');
    await rig.clock.advance(STALE_RUNNING_MS - 30_000);
    expect(await restarted.recoverInterrupted()).toBe(2);
    for (const id of [running.id, confirmed.id]) {
      expect(await get(id)).toMatchObject({ status: 'failed', errorCode: 'INTERRUPTED', sealedSecrets: null, finishedAt: rig.clock.now() });
    }
    expect((await get(waiting.id)).status).toBe('pending');

    const edits = slack.updates();
    expect(edits.map((u) => u.ts)).toEqual([running.messageTs, confirmed.messageTs]);
    for (const e of edits) {
      expect(e.text).toMatch(/: failed$/);
      expect(shown(e)).toContain('The bot stopped while this was running, so whether the cloud acted is unknown.');
      expect(shown(e)).toContain('(code `INTERRUPTED`)');
      expect(buttons(e)).toEqual([]);
    }
    expect((await audits()).filter((a) => a.outcome === 'failed').map((a) => [a.operationId, a.errorCode])).toEqual([
      [running.id, 'INTERRUPTED'],
      [confirmed.id, 'INTERRUPTED'],
    ]);
    expect(sent()).toEqual([]);

    expect(await restarted.recoverInterrupted()).toBe(0);
    expect(await restarted.confirm(confirmed.id, ALICE)).toEqual({ kind: 'tell', text: 'Already tried after you confirmed it; it failed. Run the command again to retry.' });
    expect(sent()).toEqual([]);
  });

  it('a request still pending across the restart is confirmed afterwards, once', async () => {
    const record = await posted(request('ssh-key.delete', { id: '13' }));
    const restarted = makeFlow({}, stores.open(dbPath, rig.clock));
    expect(await restarted.recoverInterrupted()).toBe(0);
    expect(await restarted.confirm(record.id, ALICE)).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/13', body: undefined }]);
  });
});
