/**
 * The Slack Web API, locally: a loopback server (127.0.0.1, a free port) that the bot's own
 * WebClient talks to through `slackApiUrl`, answering the methods the bot calls the way Slack
 * answers them, plus the response_url endpoint Bolt's `respond()` posts to. What it is told
 * lands in a LocalModel, which the shell renders.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SHELL_APP_ID, SHELL_BOT, SHELL_TEAM, SHELL_USER } from './identity.js';
import { LocalModel, type JsonObject, type ShellMessage } from './local-model.js';

export interface LocalSlack {
  /** `http://127.0.0.1:PORT/api/`: the bot's `slackApiUrl`. */
  apiUrl: string;
  model: LocalModel;
  /** A fresh response_url for `channel` (default: home); `originalTs` is the ephemeral message a click came from. */
  responseUrl(originalTs?: string, channel?: string): string;
  close(): Promise<void>;
}

type Params = Record<string, unknown>;
type Answer = JsonObject & { ok: boolean };
type Method = (p: Params, model: LocalModel) => Answer;

const JSON_PARAMS = ['blocks', 'view', 'attachments', 'metadata', 'unfurls'];
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const fail = (error: string): Answer => ({ ok: false, error });
const asObject = (v: unknown): JsonObject | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : undefined);
/** Slack gives every block without a block_id one of its own. */
const blocksOf = (v: unknown): unknown[] | undefined =>
  Array.isArray(v) ? v.map((b) => (asObject(b) && typeof b.block_id !== 'string' ? { ...b, block_id: randomBytes(3).toString('base64url') } : b)) : undefined;

/** A message as conversations.replies / .history list it; metadata only when asked for, as Slack does for others' apps. */
function listed(m: ShellMessage, p: Params): JsonObject {
  const withMeta = p.include_all_metadata === true || p.include_all_metadata === 'true';
  return {
    type: 'message',
    ts: m.ts,
    text: m.text,
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    user: SHELL_BOT.userId,
    bot_id: SHELL_BOT.botId,
    ...(withMeta && m.metadata ? { metadata: m.metadata } : {}),
  };
}

const METHODS: Record<string, Method> = {
  'auth.test': () => ({
    ok: true,
    url: `https://${SHELL_TEAM.domain}.local/`,
    team: SHELL_TEAM.domain,
    user: SHELL_BOT.name,
    team_id: SHELL_TEAM.id,
    user_id: SHELL_BOT.userId,
    bot_id: SHELL_BOT.botId,
    app_id: SHELL_APP_ID,
    is_enterprise_install: false,
  }),
  'chat.postMessage': (p, model) => {
    const channel = str(p.channel);
    if (!channel) return fail('channel_not_found');
    const text = str(p.text) ?? '';
    const blocks = blocksOf(p.blocks) ?? [];
    if (!text && blocks.length === 0) return fail('no_text');
    const threadTs = str(p.thread_ts);
    const metadata = asObject(p.metadata);
    const m = model.post({
      channel,
      text,
      blocks,
      ...(threadTs ? { threadTs } : {}),
      ...(metadata ? { metadata } : {}),
      broadcast: p.reply_broadcast === true || p.reply_broadcast === 'true',
    });
    return { ok: true, channel, ts: m.ts, message: { type: 'message', text, blocks, ts: m.ts, user: SHELL_BOT.userId, bot_id: SHELL_BOT.botId } };
  },
  'chat.update': (p, model) => {
    const m = model.update(String(p.ts), str(p.text) ?? '', blocksOf(p.blocks));
    return m ? { ok: true, channel: m.channel, ts: m.ts, text: m.text } : fail('message_not_found');
  },
  'chat.delete': (p, model) => {
    const m = model.remove(String(p.ts));
    return m ? { ok: true, channel: m.channel, ts: m.ts } : fail('message_not_found');
  },
  'chat.postEphemeral': (p, model) => {
    const channel = str(p.channel);
    if (!channel) return fail('channel_not_found');
    // The shell has one person: an ephemeral message for anyone else would be shown to nobody.
    if (str(p.user) !== SHELL_USER.id) return fail('user_not_in_channel');
    const e = model.postEphemeral({ channel, text: str(p.text) ?? '', blocks: blocksOf(p.blocks) ?? [] });
    return { ok: true, message_ts: e.ts };
  },
  // Link previews of what the person pasted (the shell's `link`): every URL must be one of theirs.
  'chat.unfurl': (p, model) => {
    const pasted = model.pasted.get(String(p.ts));
    const unfurls = asObject(p.unfurls);
    if (!pasted || pasted.channel !== str(p.channel)) return fail('cannot_find_message');
    if (!unfurls) return fail('invalid_unfurls_format');
    if (Object.keys(unfurls).some((url) => !pasted.urls.has(url))) return fail('cannot_unfurl_url');
    for (const [url, card] of Object.entries(unfurls)) model.unfurl(pasted.channel, url, blocksOf(asObject(card)?.blocks) ?? []);
    return { ok: true };
  },
  'views.open': (p, model) => open(p, model),
  'views.push': (p, model) => open(p, model),
  'views.update': (p, model) => {
    const id = str(p.view_id);
    const old = id ? model.views.get(id) : undefined;
    if (!id || !old) return fail('not_found');
    const hash = str(p.hash);
    if (hash && hash !== old.hash) return fail('hash_conflict');
    const view = asObject(p.view);
    if (!view) return fail('invalid_arguments');
    const stored = model.updateView(id, view)!;
    return { ok: true, view: stored.view };
  },
  // The Home tab: the shell has one person; a `home` view for anyone else is shown to nobody.
  'views.publish': (p, model) => {
    const view = asObject(p.view);
    if (str(p.user_id) !== SHELL_USER.id) return fail('user_not_found');
    if (!view || view.type !== 'home') return fail('invalid_arguments');
    return { ok: true, view: model.publishHome(view).view };
  },
  'usergroups.users.list': () => ({ ok: true, users: [] }),
  // Workflow steps (issue 23): ended once, as Slack answers (step-views' words are shown as given).
  'functions.completeSuccess': (p, model) => {
    const outputs = asObject(typeof p.outputs === 'string' ? JSON.parse(p.outputs) : p.outputs);
    if (!outputs) return fail('invalid_arguments');
    const id = str(p.function_execution_id) ?? '';
    if (!model.steps.has(id)) return fail('function_execution_not_found');
    return model.endStep(id, { outputs }) ? { ok: true } : fail('execution_not_in_running_state');
  },
  'functions.completeError': (p, model) => {
    const id = str(p.function_execution_id) ?? '';
    if (!model.steps.has(id)) return fail('function_execution_not_found');
    return model.endStep(id, { error: String(p.error ?? '') }) ? { ok: true } : fail('execution_not_in_running_state');
  },
  // One page: a local thread is short.
  'conversations.replies': (p, model) => {
    const channel = str(p.channel);
    const ts = str(p.ts);
    if (!channel) return fail('channel_not_found');
    if (!ts) return fail('thread_not_found');
    const thread = model.thread(channel, ts);
    if (!thread) return fail('thread_not_found');
    return { ok: true, messages: thread.map((m) => listed(m, p)), has_more: false };
  },
  // A channel's top-level messages after `oldest`, newest first, in one page (a local channel is short).
  'conversations.history': (p, model) => {
    const channel = str(p.channel);
    if (!channel) return fail('channel_not_found');
    const oldest = Number(str(p.oldest) ?? 0);
    if (!Number.isFinite(oldest)) return fail('invalid_ts_oldest');
    const messages = model.history(channel).filter((m) => Number(m.ts) > oldest).reverse();
    return { ok: true, messages: messages.map((m) => listed(m, p)), has_more: false };
  },
};

function open(p: Params, model: LocalModel): Answer {
  if (!str(p.trigger_id)) return fail('invalid_trigger_id');
  const view = asObject(p.view);
  if (!view || view.type !== 'modal') return fail('invalid_arguments');
  return { ok: true, view: model.openView(view).view };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Form bodies (what @slack/web-api sends) and JSON bodies; blocks and views JSON-decoded. */
export function parseParams(raw: string, contentType: string | undefined): Params {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  let params: Params = {};
  if (type === 'application/json') {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    params = asObject(parsed) ?? {};
  } else {
    for (const [k, v] of new URLSearchParams(raw)) params[k] = v;
  }
  for (const key of JSON_PARAMS) {
    const value = params[key];
    if (typeof value !== 'string') continue;
    try {
      params[key] = JSON.parse(value);
    } catch {
      // left as a string; the method refuses it
    }
  }
  return params;
}

const send = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
};

export async function startLocalSlack(options: { token: string; home: string }): Promise<LocalSlack> {
  const model = new LocalModel(options.home);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    let params: Params;
    try {
      params = parseParams(raw, req.headers['content-type']);
    } catch {
      return send(res, 200, fail('invalid_json'));
    }
    const respond = /^\/respond\/([\w-]+)$/.exec(url.pathname);
    if (respond) {
      if (req.method !== 'POST') return send(res, 405, fail('method_not_allowed'));
      return model.respond(respond[1]!, params) ? send(res, 200, { ok: true }) : send(res, 404, fail('no_service'));
    }
    const api = /^\/api\/([\w.]+)$/.exec(url.pathname);
    const method = api ? METHODS[api[1]!] : undefined;
    if (!method) return send(res, 404, fail('unknown_method'));
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? str(params.token);
    if (bearer !== options.token) return send(res, 200, fail(bearer ? 'invalid_auth' : 'not_authed'));
    send(res, 200, method(params, model));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => send(res, 500, fail(`internal_error: ${e instanceof Error ? e.message : String(e)}`)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: `${origin}/api/`,
    model,
    responseUrl: (originalTs, channel) => `${origin}/respond/${model.issueResponseUrl(originalTs, channel)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
