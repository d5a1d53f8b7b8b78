/**
 * Shared rig for the change flow's state-machine tests (change-flow-*.test.ts), driven
 * directly (no Bolt, no Slack payloads): a manual clock, a chat fake that records every call
 * and can refuse, the real cloud client against the in-process sandbox, a real SQLite file,
 * the real sealer and auditor. The states: pending → confirmed → running → succeeded | failed,
 * or cancelled | expired.
 */
import { afterEach, beforeEach } from 'vitest';
import { createAuditor } from '../../src/audit/auditor.js';
import type { AuditEntry } from '../../src/domain/audit-entry.js';
import { SlackApiError, type MessageArgs, type SlackApi } from '../../src/chat/slack-api.js';
import { nameSteps } from '../../src/app/name-steps.js';
import { createChangeFlow } from '../../src/confirm/change-flow.js';
import type { ChangeFlow, ChangeFlowDeps } from '../../src/confirm/change-types.js';
import { createLogger } from '../../src/log.js';
import { catalog } from '../../src/operations/index.js';
import type { AnyOperation } from '../../src/operations/types.js';
import { createSealer, type Store } from '../../src/store/index.js';
import { startRig, type Rig } from '../integration/helpers.js';
import { tempStores } from '../store/helpers.js';

export const ALICE = 'U0ALICE';
export const BOB = 'U0BOB';
export const CAROL = 'U0CAROL';
export const OPS = 'C0OPS';
export const TTL = 10 * 60_000;
export const PASSWORD = 'Pw-sealed-7f3kQz9x';

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
export function shown(m: { text: string; blocks?: unknown[] }): string {
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

export const buttons = (m: { blocks?: unknown[] }) => (JSON.stringify(m.blocks ?? []).match(/"action_id":"op_[a-z_]+"/g) ?? []).map((s) => s.slice(13, -1));

// ── the rig ─────────────────────────────────────────────────────────────────────────────────

export let rig: Rig;
export let stores: ReturnType<typeof tempStores>;
export let dbPath: string;
export let store: Store;
export let slack: ReturnType<typeof fakeSlack>;
export let logLines: string[];
export let flow: ChangeFlow;
export let watches: unknown[];

export const sealer = createSealer(['xoxb-test-bot-token', 'tok-SECRET-abc123xyz']);

export function makeFlow(over: Partial<ChangeFlowDeps> = {}, onStore: Store = store): ChangeFlow {
  const logger = createLogger({ level: 'debug', sink: (l) => logLines.push(l) });
  return createChangeFlow({
    store: onStore.operations,
    cloudFor: () => rig.client,
    clock: rig.clock,
    logger,
    slack: slack.api,
    sealer,
    catalog,
    names: nameSteps(),
    confirmTtlMs: TTL,
    auditor: createAuditor({ store: onStore.audit, logger, clock: rig.clock }),
    startWatch: async (input) => {
      watches.push(input);
      return { id: `w${watches.length}` };
    },
    ...over,
  });
}

/** Registers the per-test rig (fresh sandbox, SQLite file, chat fake, flow); call once per test file. */
export function useChangeFlowRig(): void {
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
}

/** Replaces the flow `posted` starts requests on (importers cannot assign a module binding). */
export function setFlow(next: ChangeFlow): void {
  flow = next;
}

/** Arguments as the router hands them over: parsed by the entry's schema (and its check). */
export function request(opId: string, raw: Record<string, unknown>, userId = ALICE, extra: { dedupeKey?: string; dryRun?: boolean } = {}) {
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
export const sent = () => rig.sandbox.requests.filter((r) => r.method !== 'GET').map((r) => ({ method: r.method, path: r.rawPath, body: r.body }));
export const reads = () => rig.sandbox.requests.filter((r) => r.method === 'GET').map((r) => r.rawPath);

export async function posted(req: ReturnType<typeof request>) {
  const out = await flow.start(req);
  if (out.kind !== 'posted') throw new Error(`expected posted, got ${JSON.stringify(out)}`);
  return out.record;
}

export const get = async (id: string) => (await store.operations.get(id))!;
export const audits = async (): Promise<AuditEntry[]> => (await store.audit.list({ limit: 100 })).reverse();
export const lastUpdate = () => slack.updates().at(-1)!;
