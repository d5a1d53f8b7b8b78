/**
 * A fake Slack Web API on loopback that answers like Slack and records every call.
 *
 *   const slack = await createFakeSlack();
 *   new App({ token: BOT_TOKEN, signingSecret, clientOptions: { slackApiUrl: slack.url } })
 *
 * Checks, in Slack's order: rate limit (429 + Retry-After) → unknown_method → token
 * (not_authed / invalid_auth / not_allowed_token_type) → injected failures → scope
 * (missing_scope; granted scopes default to manifest.yml's) → required parameters (from
 * shared/slack/web-api-methods.json) → the method itself, which validates Block Kit and
 * keeps a model of messages, threads, ephemerals and views.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { BlockKitViolation } from './block-kit-limits.js';
import { findBlockKitViolations } from './block-kit-limits.js';
import { chatMethods } from './fake-slack-chat.js';
import { fail, type Identity, type MethodContext, type MethodHandler, type SlackResponse } from './fake-slack-context.js';
import { directoryMethods } from './fake-slack-directory.js';
import { functionMethods } from './fake-slack-functions.js';
import { historyMethods } from './fake-slack-history.js';
import { FakeSlackModel, isOpenView, type FakeEphemeral, type FakeExecution, type FakeMessage, type FakeView } from './fake-slack-model.js';
import { viewInteractionDelivered, viewMethods, viewSubmissionAcked } from './fake-slack-views.js';
import { unfurlKey, unfurlMethods } from './fake-slack-unfurl.js';
import { parseParams, readBody } from './http-body.js';
import type { JsonObject } from './json.js';
import { createTsSequence } from './ids.js';
import { listenLoopback } from './loopback.js';
import { manifestBotScopes, METHOD_SCOPES } from './manifest-scopes.js';
import { loadWebApiSpec, missingParamError } from './web-api-spec.js';
import {
  ADMINS_GROUP, APP_ID, APP_TOKEN, BOT, BOT_TOKEN, DEFAULT_CHANNELS, DEFAULT_USERS, TEAM,
  type FakeChannel, type FakeUser,
} from './workspace.js';

export type { FakeEphemeral, FakeExecution, FakeMessage, FakeView } from './fake-slack-model.js';

export interface FakeSlackOptions {
  botUserId?: string;
  teamId?: string;
  /** Replaces the default channels (#cloud-ops member, #random not a member, a private one). */
  channels?: readonly FakeChannel[];
  users?: readonly FakeUser[];
  /** usergroup id → member user ids; default @cloud-admins = [Alice]. */
  usergroups?: Record<string, readonly string[]>;
  botToken?: string;
  appToken?: string;
  /** Bot scopes granted; default: manifest.yml's `oauth_config.scopes.bot`. */
  scopes?: readonly string[];
  /**
   * Clock for ts, trigger expiry and call times (ms). Given, it also judges Slack's 3-s ack
   * deadline of a view_submission (a later ack is ignored, the modal stays open); on the default
   * wall clock that deadline is not judged, so a loaded machine cannot make tests flaky.
   */
  now?: () => number;
}

export interface RecordedCall {
  method: string;
  /** Parsed from form/JSON/query; `blocks`, `view`, `attachments`, `metadata` JSON-decoded; no token. */
  params: Record<string, unknown>;
  token: string | undefined;
  at: number;
  status: number;
  response: SlackResponse;
}

export interface RecordedViolation extends BlockKitViolation {
  method: string;
  at: number;
}

export interface FakeMessages {
  /** Every live message, replies included, in posting order. */
  all(): FakeMessage[];
  /** Top-level live messages of a channel (thread replies excluded). */
  inChannel(channel: string): FakeMessage[];
  get(channel: string, ts: string): FakeMessage | undefined;
  /** Replies in a thread, oldest first (the parent excluded). */
  thread(channel: string, threadTs: string): FakeMessage[];
  /** Ephemeral messages, optionally only those shown to `user`. */
  ephemeral(user?: string): FakeEphemeral[];
  deleted(): FakeMessage[];
  /**
   * A top-level message another app posted in `channel` (its own bot and app ids), with the
   * metadata given: what a second app in the channel leaves in its history.
   */
  postFromAnotherApp(channel: string, text: string, metadata: NonNullable<FakeMessage['metadata']>): FakeMessage;
}

export interface FakeViews {
  all(): FakeView[];
  get(id: string): FakeView | undefined;
  latest(): FakeView | undefined;
  /** False once Slack closed the view (see `delivered` / `acked`), or for an id it never opened. */
  isOpen(id: string): boolean;
  /**
   * The rig is delivering an interactive payload to the app (slack-sender.ts and fake-socket.ts
   * call this): a `view_closed` closes its view first, as the person already did; a trigger from
   * inside a modal is tied to it, so views.push stacks there. Throws for a payload from a modal
   * Slack closed (nobody can submit or click in it), unless it is a `redelivery` (a retry).
   */
  delivered(payload: JsonObject, redelivery?: boolean): void;
  /**
   * The app acknowledged a `view_submission` with `ack` (the body; undefined when empty), as
   * Slack applies it: empty closes the submitted view (a root view: the modal), `clear` the
   * whole stack, `update` replaces it under the same id, `push` stacks a new view, `errors`
   * (or an answer Slack would refuse) leaves it open. So does an ack more than 3 s after
   * `delivered` on an injected clock (`FakeSlackOptions.now`): Slack ignores it (`FakeView.lateAcks`).
   */
  acked(payload: JsonObject, ack: unknown): void;
  /** The newest Home tab published to a person (views.publish), as Slack stores it. */
  home(userId: string): JsonObject | undefined;
}

export interface FakeSlack {
  /** `http://127.0.0.1:PORT/api/`: pass as `clientOptions.slackApiUrl`. */
  url: string;
  calls: RecordedCall[];
  callsTo(method: string): RecordedCall[];
  violations: RecordedViolation[];
  messages: FakeMessages;
  views: FakeViews;
  channels: Map<string, FakeChannel>;
  usergroups: ReadonlyMap<string, readonly string[]>;
  setMembers(usergroupId: string, userIds: readonly string[]): void;
  /** The next `times` calls to `method` answer `{ ok: false, error }` (plus `extra` fields). */
  failNext(method: string, error: string, times?: number, extra?: Record<string, unknown>): void;
  /** The next `times` calls to `method` get HTTP 429 with `Retry-After: retryAfterSec`. */
  rateLimitNext(method: string, retryAfterSec: number, times?: number): void;
  /** The next `times` calls to `method` get HTTP `status` (default 500), as when Slack itself is down. */
  httpErrorNext(method: string, status?: number, times?: number): void;
  /**
   * The next `times` calls to `method` get no answer at all (recorded with status 0) until
   * `releaseHung()`, which then handles them as usual — as Slack does when it acts but its
   * answer is lost or late. A client that gave up by then never reads the answer.
   */
  hangNext(method: string, times?: number): void;
  /** The next `times` calls to `method` are answered as usual, but only after `ms` (real time): a slow Slack. */
  delayNext(method: string, ms: number, times?: number): void;
  /** Answers every hung call now. */
  releaseHung(): void;
  /** Drops injected failures not used yet: of one method, or all. */
  clearFaults(method?: string): void;
  /** A person posted a message with these links in `channel` at `ts` (chat.unfurl may unfurl only them). */
  shareLinks(channel: string, ts: string, urls: readonly string[]): void;
  /** What chat.unfurl attached to a message, by URL. */
  unfurls(channel: string, ts: string): Record<string, JsonObject> | undefined;
  /** Workflow step executions Slack started (`start` before sending function_executed), and how each ended. */
  executions: {
    start(id: string, callbackId: string): void;
    get(id: string): FakeExecution | undefined;
  };
  /** Where `apps.connections.open` sends Socket Mode clients (see fake-socket.ts). */
  attachSocket(url: () => string | undefined): void;
  close(): Promise<void>;
}

const HANDLERS: Record<string, MethodHandler> = { ...chatMethods, ...viewMethods, ...directoryMethods, ...historyMethods, ...unfurlMethods, ...functionMethods };
const JSON_PARAMS = ['blocks', 'view', 'attachments', 'metadata', 'unfurls', 'outputs'];

function decodeJsonParams(params: Record<string, unknown>): void {
  for (const key of JSON_PARAMS) {
    const value = params[key];
    if (typeof value !== 'string') continue;
    try {
      params[key] = JSON.parse(value);
    } catch {
      // left as a string: the method answers invalid_blocks_format / invalid_arguments
    }
  }
}

function bearer(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return m?.[1]?.trim();
}

interface Fault {
  kind: 'fail' | 'rate' | 'http' | 'hang' | 'delay';
  error: string;
  retryAfterSec: number;
  delayMs?: number;
  httpStatus?: number;
  extra: Record<string, unknown>;
  remaining: number;
}

export async function createFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const now = options.now ?? Date.now;
  const identity: Identity = {
    teamId: options.teamId ?? TEAM.id,
    teamDomain: TEAM.domain,
    botUserId: options.botUserId ?? BOT.userId,
    botId: BOT.botId,
    appId: APP_ID,
  };
  const botToken = options.botToken ?? BOT_TOKEN;
  const appToken = options.appToken ?? APP_TOKEN;
  const scopes = new Set(options.scopes ?? manifestBotScopes());
  const specs = loadWebApiSpec();
  const model = new FakeSlackModel(
    options.channels ?? DEFAULT_CHANNELS,
    options.users ?? DEFAULT_USERS,
    options.usergroups ?? { [ADMINS_GROUP.id]: ADMINS_GROUP.members },
  );
  const calls: RecordedCall[] = [];
  const violations: RecordedViolation[] = [];
  const faults = new Map<string, Fault[]>();
  const hung: (() => void)[] = [];
  let socketUrl: () => string | undefined = () => undefined;
  const nextTs = createTsSequence(now);

  const takeFault = (method: string): Fault | undefined => {
    const queue = faults.get(method);
    const fault = queue?.[0];
    if (!fault) return undefined;
    if (--fault.remaining <= 0) queue.shift();
    return fault;
  };
  const addFault = (method: string, fault: Fault) => faults.set(method, [...(faults.get(method) ?? []), fault]);

  function answer(method: string, params: Record<string, unknown>, token: string | undefined): SlackResponse {
    const spec = specs.get(method);
    const handler = HANDLERS[method];
    if (!spec || !handler) return fail('unknown_method');
    if (!token) return fail('not_authed');
    if (token !== botToken && token !== appToken) return fail('invalid_auth');
    if ((method === 'apps.connections.open') !== (token === appToken)) return fail('not_allowed_token_type');
    // Only a method's own failures here: Slack's infrastructure faults (delay, hang, …) were taken per call in handle().
    const fault = faults.get(method)?.[0]?.kind === 'fail' ? takeFault(method) : undefined;
    if (fault) return fail(fault.error, fault.extra);
    const needed = (METHOD_SCOPES[method] ?? []).find((s) => !scopes.has(s));
    if (needed) return fail('missing_scope', { needed, provided: [...scopes].join(',') });
    const present = (name: string) => params[name] !== undefined && params[name] !== '';
    const missing = spec.required.find((name) => !present(name));
    if (missing) {
      const { error, messages } = missingParamError(spec, missing);
      return fail(error, messages ? { response_metadata: { messages } } : {});
    }
    const group = spec.oneOf.find((names) => !names.some(present));
    if (group) return fail('invalid_arguments', { response_metadata: { messages: [`[ERROR] one of ${group.join(', ')} is required`] } });
    const ctx: MethodContext = {
      model,
      identity,
      now,
      nextTs,
      socketUrl: () => socketUrl(),
      scopes,
      check: (payload) => {
        const found = findBlockKitViolations(payload);
        violations.push(...found.map((v) => ({ ...v, method, at: now() })));
        return found;
      },
    };
    return handler(params, ctx);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = url.pathname.startsWith('/api/') ? url.pathname.slice('/api/'.length) : undefined;
    if (!method) {
      res.writeHead(404).end();
      return;
    }
    const raw = await readBody(req);
    const parsed = parseParams(raw, req.headers['content-type'], url.searchParams);
    const params = parsed.ok ? parsed.params : {};
    const token = bearer(req) ?? (typeof params.token === 'string' && params.token !== '' ? params.token : undefined);
    delete params.token;
    decodeJsonParams(params);
    // Faults of Slack's own infrastructure come before anything the method checks.
    const head = faults.get(method)?.[0]?.kind;
    const infra = head === 'rate' || head === 'http' || head === 'hang' || head === 'delay' ? takeFault(method) : undefined;
    if (infra?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, infra.delayMs));
    const rate = infra?.kind === 'rate' ? infra : undefined;
    if (infra?.kind === 'hang') {
      const call: RecordedCall = { method, params, token, at: now(), status: 0, response: fail('no_answer') };
      calls.push(call);
      hung.push(() => {
        call.response = parsed.ok ? answer(method, params, token) : fail(parsed.error);
        call.status = 200;
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(call.response));
      });
      return;
    }
    let status = 200;
    let response: SlackResponse;
    if (infra?.kind === 'http') {
      status = infra.httpStatus ?? 500;
      response = fail('internal_error');
    } else if (rate) {
      status = 429;
      response = fail('ratelimited');
      res.setHeader('retry-after', String(rate.retryAfterSec));
    } else {
      response = parsed.ok ? answer(method, params, token) : fail(parsed.error);
    }
    calls.push({ method, params, token, at: now(), status, response });
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(response));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
    });
  });
  const loopback = await listenLoopback(server);
  const live = (m: FakeMessage) => !m.deleted;

  return {
    url: `${loopback.origin}/api/`,
    calls,
    callsTo: (method) => calls.filter((c) => c.method === method),
    violations,
    messages: {
      all: () => model.messageList.filter(live),
      inChannel: (channel) => model.messageList.filter((m) => live(m) && m.channel === channel && (!m.thread_ts || m.thread_ts === m.ts)),
      get: (channel, ts) => model.message(channel, ts),
      thread: (channel, threadTs) =>
        model.messageList.filter((m) => live(m) && m.channel === channel && m.thread_ts === threadTs && m.ts !== threadTs),
      ephemeral: (user) => model.ephemeralList.filter((e) => user === undefined || e.user === user),
      deleted: () => model.messageList.filter((m) => m.deleted),
      postFromAnotherApp: (channel, text, metadata) => {
        const message: FakeMessage = {
          type: 'message',
          channel,
          ts: nextTs(),
          text,
          metadata,
          user: 'U0OTHERBOT',
          bot_id: 'B0OTHERAPP',
          app_id: 'A0OTHERAPP',
          team: identity.teamId,
          versions: [],
          deleted: false,
          postedAt: now(),
        };
        model.messageList.push(message);
        return message;
      },
    },
    views: {
      all: () => [...model.viewList],
      get: (id) => model.view(id),
      latest: () => model.viewList.at(-1),
      isOpen: (id) => {
        const record = model.view(id);
        return record !== undefined && isOpenView(record);
      },
      delivered: (payload, redelivery) => viewInteractionDelivered({ model, identity, now }, payload, redelivery),
      acked: (payload, ack) => viewSubmissionAcked({ model, identity, now, judgesAckDeadline: options.now !== undefined }, payload, ack),
      home: (userId) => model.homes.get(userId)?.at(-1),
    },
    channels: model.channels,
    usergroups: model.usergroups,
    executions: {
      start: (id, callbackId) => void model.executions.set(id, { id, callbackId, state: 'running' }),
      get: (id) => model.executions.get(id),
    },
    setMembers: (usergroupId, userIds) => void model.usergroups.set(usergroupId, [...userIds]),
    failNext: (method, error, times = 1, extra = {}) => addFault(method, { kind: 'fail', error, retryAfterSec: 0, extra, remaining: times }),
    rateLimitNext: (method, retryAfterSec, times = 1) =>
      addFault(method, { kind: 'rate', error: 'ratelimited', retryAfterSec, extra: {}, remaining: times }),
    httpErrorNext: (method, status = 500, times = 1) =>
      addFault(method, { kind: 'http', error: 'internal_error', retryAfterSec: 0, httpStatus: status, extra: {}, remaining: times }),
    hangNext: (method, times = 1) => addFault(method, { kind: 'hang', error: 'no_answer', retryAfterSec: 0, extra: {}, remaining: times }),
    delayNext: (method, ms, times = 1) => addFault(method, { kind: 'delay', error: 'slow', retryAfterSec: 0, delayMs: ms, extra: {}, remaining: times }),
    releaseHung: () => hung.splice(0).forEach((release) => release()),
    clearFaults: (method) => (method === undefined ? faults.clear() : void faults.delete(method)),
    shareLinks: (channel, ts, urls) => void model.sharedLinks.set(unfurlKey(channel, ts), new Set(urls)),
    unfurls: (channel, ts) => model.unfurls.get(unfurlKey(channel, ts)),
    attachSocket: (url) => {
      socketUrl = url;
    },
    close: () => {
      hung.length = 0; // their connections are closed with the server
      return loopback.close();
    },
  };
}
