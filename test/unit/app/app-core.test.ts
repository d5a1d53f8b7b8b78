/**
 * The application core answers as data: no Slack here, every service a fake or a real store
 * in memory given through deps. What a surface would deliver is what these tests read.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccess } from '../../../src/access/access.js';
import { buildPolicy } from '../../../src/access/policy.js';
import { createAppCore, type AppCore, type AppCoreDeps } from '../../../src/app/app-core.js';
import { createManualClock } from '../../../src/clock.js';
import type { ChangeFlow, ClickOutcome } from '../../../src/confirm/change-types.js';
import type { AuditEntry, NewAuditEntry } from '../../../src/domain/audit-entry.js';
import { createLogger } from '../../../src/log.js';
import { catalog } from '../../../src/operations/index.js';
import { createSqliteStore, type Store } from '../../../src/store/index.js';
import { md } from '../../../src/views/mrkdwn.js';

const PEOPLE = { viewer: 'U0VIEWER1', operator: 'U0OPERAT1', admin: 'U0ADMIN01' } as const;
const clock = createManualClock();
const logger = createLogger({ level: 'error', sink: () => {} });
const policy = buildPolicy({
  access: { admins: [PEOPLE.admin], operators: [PEOPLE.operator], viewers: [PEOPLE.viewer], channels: undefined, policyFile: undefined, approval: undefined },
  cloud: { baseUrl: 'https://cloud.example.com/v2', token: 't' },
});

/** Anything a surface would have to deliver by hand: the core must never reach for it. */
const noSlack = new Proxy({}, { get: (_t, name) => () => Promise.reject(new Error(`the core called slack.${String(name)}`)) });

/** A change flow that says what it was asked and answers what the test gives it. */
function fakeFlow(answer: ClickOutcome) {
  const calls: string[] = [];
  const said = (what: string) => async (id: string, user: string) => (calls.push(`${what} ${id} ${user}`), answer);
  const flow = { confirm: said('confirm'), cancel: said('cancel'), retrySync: said('retrySync') } as unknown as ChangeFlow;
  return { flow, calls };
}

describe('the application core', () => {
  let store: Store;
  let audited: NewAuditEntry[];
  const usageReads: string[] = [];
  const coreWith = (flow: ChangeFlow): AppCore => {
    const deps = {
      catalog,
      access: createAccess({ policy: () => policy, groupMembers: async () => [], clock, logger }),
      auditor: { record: async (e: NewAuditEntry) => void audited.push(e), list: async () => [] as AuditEntry[] },
      accounts: { client: (account: string) => ({ account: { usage: async () => (usageReads.push(account), { servers: 3 }) } }) },
      store: store.operations,
      alertStores: store,
      watcher: { get: async () => undefined },
      flow,
      slack: noSlack,
      clock,
      logger,
    } as unknown as AppCoreDeps;
    return createAppCore(deps);
  };
  beforeEach(() => {
    store = createSqliteStore({ path: ':memory:' });
    audited = [];
    usageReads.length = 0;
  });
  afterEach(() => store.close());

  it('a Confirm click is the flow’s one decision, and what the clicker is told comes back as the reply', async () => {
    const { flow, calls } = fakeFlow({ kind: 'tell', text: md`Someone else already confirmed this.` });
    const answer = await coreWith(flow).changeClick({ button: 'confirm', recordId: 'op_1', userId: PEOPLE.operator });
    expect(calls).toEqual([`confirm op_1 ${PEOPLE.operator}`]);
    expect(answer).toMatchObject({ kind: 'tell', reply: { text: 'Someone else already confirmed this.' } });
  });

  it('Cancel and Retry sync go to their own decisions; one the status message says all of leaves nothing to tell', async () => {
    const { flow, calls } = fakeFlow({ kind: 'done' });
    const core = coreWith(flow);
    expect(await core.changeClick({ button: 'cancel', recordId: 'op_2', userId: PEOPLE.admin })).toEqual({ kind: 'done' });
    expect(await core.changeClick({ button: 'retry-sync', recordId: 'op_3', userId: PEOPLE.admin })).toEqual({ kind: 'done' });
    expect(calls).toEqual([`cancel op_2 ${PEOPLE.admin}`, `retrySync op_3 ${PEOPLE.admin}`]);
  });

  it('a destructive change asks for its hostname as data: the surface opens the form for that record', async () => {
    const { flow } = fakeFlow({ kind: 'type-to-confirm', expected: 'web-1.example.net', what: md`Delete server *web-1*` });
    const answer = await coreWith(flow).changeClick({ button: 'confirm', recordId: 'op_4', userId: PEOPLE.admin });
    expect(answer).toEqual({ kind: 'type-to-confirm', recordId: 'op_4', what: 'Delete server *web-1*', expected: 'web-1.example.net' });
  });

  it('the Home tab of a viewer: usage, no approvals list, only their own trail and no audit button', async () => {
    const home = await coreWith(fakeFlow({ kind: 'done' }).flow).homeData(PEOPLE.viewer);
    expect(home).toMatchObject({ userId: PEOPLE.viewer, role: 'viewer', auditOfOthers: false, approvals: undefined });
    expect(home.usage).toEqual([{ account: policy.defaultAccount, usage: { servers: 3 } }]);
    expect(home.buttons.map((b) => b.op)).toEqual(['account.usage']);
  });

  it('the Home tab of an admin: an approvals list (empty), everyone’s trail and its button', async () => {
    const home = await coreWith(fakeFlow({ kind: 'done' }).flow).homeData(PEOPLE.admin);
    expect(home).toMatchObject({ role: 'admin', auditOfOthers: true, approvals: [] });
    expect(home.buttons.map((b) => b.op)).toEqual(['account.usage', 'audit.list']);
    expect(usageReads).toEqual([policy.defaultAccount]);
  });

  it('a Home button runs only the reads the Home tab draws', async () => {
    const core = coreWith(fakeFlow({ kind: 'done' }).flow);
    expect(core.homeButton(JSON.stringify({ op: 'server.list', args: {} }), PEOPLE.admin)).toEqual({ kind: 'unreadable' });
    const run = core.homeButton(JSON.stringify({ op: 'account.usage', args: {} }), PEOPLE.viewer);
    expect(run.kind).toBe('work');
    if (run.kind === 'work') await run.reply;
    // Run and audited as `/cloud account usage` typed without a channel, on the default account.
    expect(usageReads).toEqual([policy.defaultAccount]);
    expect(audited.map((e) => [e.userId, e.opId, e.channelId, e.outcome])).toEqual([[PEOPLE.viewer, 'account.usage', null, 'succeeded']]);
  });

  it('Keep watching on a watch it cannot find is a private note, posted by no one but the surface', async () => {
    const answer = await coreWith(fakeFlow({ kind: 'done' }).flow).keepWatching({ channelId: 'C1', userId: PEOPLE.admin, watchId: 'w_gone' });
    expect(answer).toMatchObject({ kind: 'tell', reply: { text: 'That button could not be read; nothing was done.' } });
  });
});
