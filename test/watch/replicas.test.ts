/**
 * Watches shared by replicas: several watchers (each its own store connection and lease owner)
 * on one database, a manual clock, and one recording Slack whose thread can be read back
 * (conversations.replies). Crashes are simulated by a final post that never returns: the
 * replica is abandoned mid-call, as kill -9 would leave it, with or without the post landed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCloudClient, type ClosableCloudClient } from '../../src/cloud/client.js';
import { createManualClock, type ManualClock } from '../../src/clock.js';
import { createLogger } from '../../src/log.js';
import { createSandbox, SEED_WORKER_UUID, type ListeningSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { MessageArgs, SlackApi } from '../../src/chat/slack-api.js';
import { createSqliteStore, type Store } from '../../src/store/index.js';
import { createWatcher, FINAL_EVENT, type Watcher } from '../../src/watch/watcher.js';

const BASE = 10_000;
const LEASE = 30_000;
const THREAD = '1700000000.000001';

interface Posted extends MessageArgs {
  ts: string;
  deleted: boolean;
}

let clock: ManualClock;
let sandbox: Sandbox;
let server: ListeningSandbox;
let cloud: ClosableCloudClient;
let dir: string;
let stores: Store[];
let messages: Posted[];
let ephemerals: { user: string; blocks: unknown[] }[];
let seq: number;
/** Resolves when a final post reaches Slack (the hook is called), hung or not. */
let finalStarted: Promise<void>;
let startFinal: () => void;

/** What a final post does instead of the usual: `land()` puts it in the thread and gives its ts. */
type FinalHook = (land: () => string) => Promise<{ channel: string; ts: string }>;

function slack(onFinal?: FinalHook): SlackApi {
  const land = (args: MessageArgs) => () => {
    const ts = `1700000001.${String(++seq).padStart(6, '0')}`;
    messages.push({ ...args, ts, deleted: false });
    return ts;
  };
  return {
    async postMessage(args) {
      if (args.metadata?.event_type === FINAL_EVENT && onFinal) {
        startFinal();
        return onFinal(land(args));
      }
      return { channel: args.channel, ts: land(args)() };
    },
    async update() {},
    async deleteMessage({ ts }) {
      const m = messages.find((x) => x.ts === ts);
      if (m) m.deleted = true;
    },
    async postEphemeral(args) {
      ephemerals.push(args);
    },
    async openView() {
      return { id: 'V1' };
    },
    async updateView() {},
    async publishView() {},
    async usergroupMembers() {
      return [];
    },
    async threadReplies({ channel, ts }) {
      return messages
        .filter((m) => !m.deleted && m.channel === channel && m.thread_ts === ts)
        .map((m) => ({ ts: m.ts, ...(m.metadata ? { metadata: m.metadata } : {}) }));
    },
  };
}

/** A replica: its own connection to the one database file, its own lease owner. */
function replica(owner: string, opts: { onFinal?: FinalHook; leaseMs?: number } = {}): Watcher {
  const store = createSqliteStore({ path: join(dir, 'db.sqlite'), clock });
  stores.push(store);
  return createWatcher({
    store: store.watches,
    cloudFor: () => cloud,
    clock,
    logger: createLogger({ sink: () => {} }),
    slack: slack(opts.onFinal),
    refreshParent: async () => {},
    intervalMs: BASE,
    owner,
    leaseMs: opts.leaseMs ?? LEASE,
    // The requester here may read credentials (the access check is runtime-services.ts's).
    maySeeSecret: async () => true,
  });
}

const finals = () => messages.filter((m) => !m.deleted && m.metadata?.event_type === FINAL_EVENT);
const watchesOf = () => stores[0]!.watches;
const never = () => new Promise<never>(() => {});

async function reinstall(): Promise<string> {
  const r = await cloud.servers.reinstall('101', { template_slug: 'debian-12' });
  return r.password!;
}

/** Runs the given replicas' passes together, step by step, the first to claim taking turns; `each` after every step. */
async function run(replicas: Watcher[], ms: number, step = 1000, each?: () => Promise<void>): Promise<void> {
  for (let t = 0, n = 0; t < ms; t += step, n++) {
    await clock.advance(step);
    const order = n % 2 ? [...replicas].reverse() : replicas;
    await Promise.all(order.map((r) => r.tick()));
    await each?.();
  }
}

/** Runs `w` until its final post of `id` is in flight (claimed, sent to Slack, not answered), then leaves it there. */
async function runUntilFinalizing(w: Watcher, id: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await clock.advance(1000);
    const started = await Promise.race([w.tick().then(() => false), finalStarted.then(() => true)]);
    if (started) {
      expect((await watchesOf().get(id))!.status).toBe('finalizing');
      return;
    }
  }
  throw new Error('the watch never reached its end');
}

beforeEach(async () => {
  clock = createManualClock();
  sandbox = createSandbox({ clock, buildMs: 120_000, reinstallMs: 90_000 });
  server = await sandbox.listen();
  cloud = createCloudClient({ baseUrl: server.baseUrl, token: sandbox.token, clock, retry: { maxAttempts: 1 } });
  dir = mkdtempSync(join(tmpdir(), 'cloudbot-replicas-'));
  stores = [];
  messages = [];
  ephemerals = [];
  seq = 0;
  finalStarted = new Promise((resolve) => (startFinal = resolve));
});

afterEach(async () => {
  await cloud.close();
  await server.close();
  for (const s of stores) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('watches shared by replicas', () => {
  it('two replicas on one database, leases bouncing between them: every watch ends with one final post, one password', async () => {
    // A short lease, so the watches change hands between passes and both replicas poll them.
    const a = replica('replica-a', { leaseMs: 1000 });
    const b = replica('replica-b', { leaseMs: 1000 });
    const password = await reinstall();
    const ids: string[] = [];
    ids.push((await a.watch({ kind: 'server', resource: '101', channelId: 'COPS', threadTs: THREAD, requestedBy: 'UALICE' })).id);
    const built = await cloud.workers.deploy({ location_id: 1, name: 'api', git_source: 'public', git_repository: 'https://github.com/acme/api.git' });
    for (const [i, uuid] of [built.uuid, SEED_WORKER_UUID, built.uuid].entries()) {
      ids.push((await b.watch({ kind: 'worker', resource: uuid, channelId: 'COPS', threadTs: `1700000000.00010${i}`, requestedBy: 'UBOB' })).id);
    }
    const holders = new Set<string | null>();
    await run([a, b], 200_000, 1500, async () => {
      for (const w of await watchesOf().listOpen()) holders.add(w.leaseOwner);
    });
    for (const id of ids) {
      const w = (await watchesOf().get(id))!;
      const mine = finals().filter((m) => m.metadata!.event_payload.watch_id === id);
      expect(mine).toHaveLength(1);
      expect(w).toMatchObject({ status: 'done', finalTs: mine[0]!.ts });
    }
    expect(finals()).toHaveLength(ids.length);
    expect(ephemerals).toHaveLength(1);
    expect(JSON.stringify(ephemerals[0]!.blocks)).toContain(password);
    expect(holders).toEqual(new Set(['replica-a', 'replica-b'])); // both did the work
  });

  it('a replica killed after claiming the final but before it posted: another posts it once, after the lease', async () => {
    const a = replica('replica-a', { onFinal: never });
    const b = replica('replica-b');
    const password = await reinstall();
    const { id } = await a.watch({ kind: 'server', resource: '101', channelId: 'COPS', threadTs: THREAD, requestedBy: 'UALICE' });
    await runUntilFinalizing(a, id); // A's final post never returns: A is gone
    expect(finals()).toHaveLength(0);
    const claimedAt = clock.now();
    await run([b], LEASE - 2000);
    expect(finals()).toHaveLength(0); // A's lease still holds
    await run([b], 4000);
    expect(finals()).toHaveLength(1);
    expect(finals()[0]!.metadata).toEqual({ event_type: FINAL_EVENT, event_payload: { watch_id: id } });
    expect(clock.now() - claimedAt).toBeLessThanOrEqual(LEASE + 2000);
    expect(await watchesOf().get(id)).toMatchObject({ status: 'done', finalTs: finals()[0]!.ts, leaseOwner: 'replica-b' });
    expect(ephemerals).toHaveLength(1);
    expect(JSON.stringify(ephemerals[0]!.blocks)).toContain(password);
    await run([b], 60_000);
    expect(finals()).toHaveLength(1);
  });

  it('a replica killed after its final post landed, before recording it: found in the thread, not posted again', async () => {
    const a = replica('replica-a', { onFinal: (land) => (land(), never()) });
    const b = replica('replica-b');
    await reinstall();
    const { id } = await a.watch({ kind: 'server', resource: '101', channelId: 'COPS', threadTs: THREAD, requestedBy: 'UALICE' });
    await runUntilFinalizing(a, id);
    expect(finals()).toHaveLength(1);
    const landed = finals()[0]!.ts;
    await run([b], LEASE + 2000);
    expect(finals()).toHaveLength(1);
    expect(messages.filter((m) => m.metadata)).toHaveLength(1); // none posted and deleted either
    expect(await watchesOf().get(id)).toMatchObject({ status: 'done', finalTs: landed });
    // A never got to send the password; the replica that recorded the final does, once.
    expect(ephemerals).toHaveLength(1);
  });

  it('a final post hanging past the lease: the new holder posts, and the late one is deleted when it lands', async () => {
    let release!: () => void;
    const a = replica('replica-a', { onFinal: (land) => new Promise((resolve) => (release = () => resolve({ channel: 'COPS', ts: land() }))) });
    const b = replica('replica-b');
    await reinstall();
    const { id } = await a.watch({ kind: 'server', resource: '101', channelId: 'COPS', threadTs: THREAD, requestedBy: 'UALICE' });
    await runUntilFinalizing(a, id);
    await run([b], LEASE + 2000); // A still waits on Slack; B takes over and posts
    expect(finals()).toHaveLength(1);
    const bTs = finals()[0]!.ts;
    expect(await watchesOf().get(id)).toMatchObject({ status: 'done', finalTs: bTs, leaseOwner: 'replica-b' });
    release(); // A's post lands late and A hears back: its lease is gone, so it records nothing
    for (let i = 0; i < 20 && messages.filter((m) => m.metadata && !m.deleted).length > 1; i++) await new Promise((r) => setTimeout(r, 5));
    expect(finals().map((m) => m.ts)).toEqual([bTs]);
    expect(messages.filter((m) => m.metadata && m.deleted)).toHaveLength(1); // A's copy, deleted
    expect(await watchesOf().get(id)).toMatchObject({ status: 'done', finalTs: bTs });
    expect(ephemerals).toHaveLength(1);
  });

  it('a final post whose answer is lost (timeout): kept claimed, found in the thread on the next pass, posted once', async () => {
    let first = true;
    const a = replica('replica-a', {
      onFinal: async (land) => {
        const ts = land();
        if (!first) return { channel: 'COPS', ts };
        first = false;
        throw new Error('request timed out'); // landed, but the answer never came
      },
    });
    await reinstall();
    const { id } = await a.watch({ kind: 'server', resource: '101', channelId: 'COPS', threadTs: THREAD, requestedBy: 'UALICE' });
    await run([a], 150_000);
    expect(finals()).toHaveLength(1);
    expect(await watchesOf().get(id)).toMatchObject({ status: 'done', finalTs: finals()[0]!.ts });
    expect(ephemerals).toHaveLength(1);
  });

  it('a final post Slack refuses outright is not retried (posting again would be refused too)', async () => {
    const { SlackApiError } = await import('../../src/chat/slack-api.js');
    let tries = 0;
    const a = replica('replica-a', {
      onFinal: async () => {
        tries++;
        throw new SlackApiError('not_in_channel', 'chat.postMessage');
      },
    });
    const { id } = await a.watch({ kind: 'server', resource: '101', channelId: 'COPS', threadTs: THREAD, requestedBy: 'UALICE' });
    await reinstall();
    await run([a], 150_000);
    expect(tries).toBe(1);
    expect(await watchesOf().get(id)).toMatchObject({ status: 'done', finalTs: null });
  });

  it('nextDueIn does not spin on a watch another replica holds', async () => {
    const a = replica('replica-a', { onFinal: never });
    const b = replica('replica-b');
    await reinstall();
    const { id } = await a.watch({ kind: 'server', resource: '101', channelId: 'COPS', threadTs: THREAD, requestedBy: 'UALICE' });
    await runUntilFinalizing(a, id);
    const held = (await watchesOf().get(id))!;
    expect(await b.nextDueIn()).toBe(held.leaseUntil! - clock.now());
    expect(await b.nextDueIn()).toBeGreaterThan(LEASE - 2000);
  });
});
