/**
 * The hostile-output tour, shared by hostile-output.test.ts (escaping on: nothing found) and
 * hostile-output-unescaped.test.ts (escaping switched off: found). It seeds hostile strings
 * into every cloud-controlled field the bot shows, runs every operation of the catalog with
 * hostile ids and hostile free-text arguments, follows changes through Confirm and watches to
 * their final broadcast, and checks every Slack call and response_url post the bot made.
 */
import fc from 'fast-check';
import { SEED_SERVERS, SEED_WORKER_UUID, type SandboxState } from '../../src/sandbox/index.js';
import { workerFqdn } from '../../src/sandbox/views.js';
import { catalog } from '../../src/operations/index.js';
import { viewSubmissionPayload } from '../rig/payloads.js';
import { asSlackSends, HOSTILE_MARKER, typedWord } from '../rig/hostile-strings.js';
import { checkSlackOutput, type AbuseAllow, type Finding } from '../rig/mrkdwn-abuse-checker.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, CAROL, OPS_CHANNEL, type FakeChannel } from '../rig/workspace.js';
import { startBotRig, visibleText, WATCHER_AGENT, type BotRig } from './bot-rig.js';
import type { FakeMessage } from '../rig/fake-slack.js';
import { HOSTILE_MONITOR, subscriptionCloudTour, subscriptionLongCommands, subscriptionTypedCommands } from './hostile-subscriptions.js';

export const AUDIT_CHANNEL: FakeChannel = { id: 'CAUDIT0001', name: 'cloud-audit', botIsMember: true };
const BUILD_MS = 400;

export function startHostileRig(): Promise<BotRig> {
  return startBotRig({
    auditChannel: AUDIT_CHANNEL.id,
    extraChannels: [AUDIT_CHANNEL],
    sandbox: { buildMs: BUILD_MS, reinstallMs: BUILD_MS },
    watch: { intervalMs: 60 },
    slowNoticeMs: 5000,
    cloudRetry: { budgetMs: 300, maxAttempts: 1 },
    monitor: HOSTILE_MONITOR,
  });
}

// ── what the bot may write ──────────────────────────────────────────────────────────────────

const DNS_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/**
 * Mentions of the actors this tour uses, the ops and audit channels, and links to
 * https:// + a worker fqdn the sandbox reports, when that fqdn is a plain DNS name.
 */
export function allowFor(state: SandboxState): AbuseAllow {
  // The URL parser lowercases the host, so the allowed targets are lowercased too.
  const hosts = state.workers.map((w) => w.fqdnOverride ?? workerFqdn(w)).filter((h) => DNS_NAME.test(h)).map((h) => h.toLowerCase());
  const urls = new Set(hosts.flatMap((h) => [`https://${h}`, `https://${h}/`]));
  return { users: [ALICE.id, BOB.id, CAROL.id], channels: [OPS_CHANNEL.id, AUDIT_CHANNEL.id], url: (u) => urls.has(u), marker: HOSTILE_MARKER };
}

/** Findings in everything the bot sent to Slack since `mark` (see `outputMark`). */
export function findingsSince(rig: BotRig, mark: { calls: number; posts: number }): Finding[] {
  return checkSlackOutput(rig.slack.calls.slice(mark.calls), rig.responses.posts.slice(mark.posts), allowFor(rig.sandbox.state));
}

export const outputMark = (rig: BotRig) => ({ calls: rig.slack.calls.length, posts: rig.responses.posts.length });

/** One line per finding, deduplicated by rule and place, for a readable failure. */
export const summarize = (found: Finding[]) => [...new Set(found.map((f) => `${f.rule} @ ${f.where.replace(/#\d+/, '')}: ${f.excerpt.slice(0, 90)}`))];

// ── seeding the cloud ──────────────────────────────────────────────────────────────────────

/** Puts hostile values (cycled) into every cloud-controlled field the bot shows. */
export function seedHostile(state: SandboxState, values: readonly string[]): void {
  let n = 0;
  const h = () => values[n++ % values.length]!;
  for (const s of state.servers) {
    s.name = h();
    s.hostname = h();
    s.osTemplate = h();
    for (const ip of s.ips) ip.rdns = h();
    if (s.powerTask) Object.assign(s.powerTask, { message: h(), action: h(), upid: h() });
  }
  for (const r of state.reservedIps) r.rdns = h();
  for (const w of state.workers) {
    Object.assign(w, {
      name: h(), gitRepository: h(), gitBranch: h(), baseDirectory: h(), publishDirectory: h(),
      installCommand: h(), buildCommand: h(), startCommand: h(), portsExposes: h(), lastError: h(),
      suspensionReason: h(), fqdnOverride: h(),
    });
  }
  for (const list of Object.values(state.backups)) for (const b of list) Object.assign(b, { name: h(), compressionType: h() });
  for (const g of state.securityGroups) {
    g.name = h();
    g.description = h();
    for (const r of g.rules) r.comment = h();
  }
  for (const k of state.sshKeys) Object.assign(k, { name: h(), public_key: `ssh-ed25519 AAAA ${h()}` });
  for (const p of state.plans) p.name = h();
  for (const l of state.locations) Object.assign(l, { name: h(), description: h() });
  for (const t of state.osTemplates) Object.assign(t, { name: h(), group_name: h() });
  for (const t of state.workerTemplates) Object.assign(t, { name: h(), description: h() });
  for (const i of state.invoices.slice(0, 20)) Object.assign(i, { status: h(), type: h() });
}

// ── driving the bot ────────────────────────────────────────────────────────────────────────

const isSlow = (body: Record<string, unknown>) => typeof body.text === 'string' && body.text.includes('the cloud is slow to answer');
const text = (m: FakeMessage) => visibleText({ text: m.text, blocks: m.blocks });
// A change's status message, or a watch's own message (`Watch `w…` · done`), once it ended.
const ENDED = /— (done|failed|cancelled|expired)|failed|refused|· (done|cancelled|failed)/;

/** How an outcome starts when the bot never answered or a change never ended. */
export const STUCK = 'STUCK';
export const stuck = (outcomes: Outcome[]) => outcomes.filter((o) => o.how.startsWith(STUCK)).map((o) => `${o.command.slice(0, 100)} → ${o.how}`);

export interface Outcome {
  command: string;
  /** 'answered' (response_url), 'form' (a modal), or the status message's final words. */
  how: string;
}

/**
 * Sends `/cloud <command>` as Slack would (text escaped) and follows it: an answer, a form
 * (left open once its choices loaded), or a status message that is confirmed (typing
 * `typed` when asked) and waited on until it ends.
 */
export async function run(rig: BotRig, command: string, opts: { userId?: string; typed?: string; cancel?: boolean } = {}): Promise<Outcome> {
  const userId = opts.userId ?? ALICE.id;
  const from = rig.slack.calls.length;
  const responseUrl = rig.responses.next();
  await rig.send.command({ userId, channelId: OPS_CHANNEL.id, text: asSlackSends(command), responseUrl });
  const posted = () =>
    rig.slack.calls.slice(from).find((c) => c.method === 'chat.postMessage' && c.params.channel === OPS_CHANNEL.id && !c.params.thread_ts && c.response.ok);
  const answered = () => rig.responses.postsTo(responseUrl).some((p) => !isSlow(p.body));
  const form = () => rig.slack.calls.slice(from).some((c) => c.method === 'views.open');
  const privately = () => rig.slack.calls.slice(from).some((c) => c.method === 'chat.postEphemeral');
  const first = await waitFor(() => posted() ?? (answered() || privately() ? 'answered' : form() ? 'form' : undefined), { timeoutMs: 4000 }).catch(() => {
    const seen = rig.slack.calls.slice(from).map((c) => `${c.method} ${c.response.ok ? 'ok' : String(c.response.error)}`);
    return `${STUCK}: no answer; Slack calls since: ${seen.join(', ') || 'none'}`;
  });
  if (first === 'answered') return { command, how: 'answered' };
  if (first === 'form') {
    // The form opens loading, then is filled with choices from the cloud (cloud-controlled text).
    await waitFor(() => rig.slack.calls.slice(from).some((c) => c.method === 'views.update'), { timeoutMs: 5000, message: command }).catch(() => undefined);
    return { command, how: 'form' };
  }
  if (typeof first === 'string') return { command, how: first };
  const ts = String(first.response.ts);
  const msg = () => rig.slack.messages.get(OPS_CHANNEL.id, ts)!;
  if (JSON.stringify(msg().blocks ?? []).includes('"op_confirm"')) {
    if (opts.cancel) await rig.click(msg(), 'op_cancel', userId);
    else {
      const dialogs = () => rig.slack.views.all().filter((v) => v.view.callback_id === 'cloud_type_confirm').length;
      const seen = dialogs();
      if (opts.typed === undefined && text(msg()).includes('asks you to type')) return { command, how: `${STUCK}: asks to type a word the tour did not give` };
      await rig.click(msg(), 'op_confirm', userId);
      if (opts.typed !== undefined) {
        const dialog = await waitFor(() => rig.slack.views.all().filter((v) => v.view.callback_id === 'cloud_type_confirm')[seen], { timeoutMs: 5000 });
        const res = await rig.send.interaction(viewSubmissionPayload({ view: { ...dialog.view, id: dialog.id }, values: { typed: opts.typed }, userId }));
        // A value a person cannot type as shown (a control became U+FFFD): give up, as they would.
        if ((res.json as { response_action?: string } | undefined)?.response_action === 'errors') await rig.click(msg(), 'op_cancel', userId);
      }
    }
  }
  const end = await waitFor(() => ENDED.exec(text(msg()))?.[0], { timeoutMs: 4000 }).catch(() => `${STUCK}: never ended: ${text(msg()).slice(0, 200)}`);
  return { command, how: end };
}

/** Waits for the watch on a status message to broadcast its final state. */
export async function finalBroadcast(rig: BotRig, ts: string) {
  return waitFor(
    () => rig.slack.callsTo('chat.postMessage').find((c) => c.params.thread_ts === ts && (c.params.reply_broadcast === true || c.params.reply_broadcast === 'true')),
    { timeoutMs: 6000 },
  ).catch(() => undefined);
}

const newestStatusTs = (rig: BotRig) => rig.slack.messages.inChannel(OPS_CHANNEL.id).at(-1)!.ts;

// ── the two tours ───────────────────────────────────────────────────────────────────────────

/** The catalog operations a tour's commands ran (by their resource and verb words). */
export function opsOf(outcomes: Outcome[]): string[] {
  const ids = new Set<string>();
  for (const { command } of outcomes) {
    const [word = '', verb = ''] = command.trim().split(/\s+/);
    const resource = catalog.resolveResource(word);
    const op = resource ? catalog.find(resource, verb) ?? catalog.find(resource, catalog.resources.find((r) => r.name === resource)?.defaultVerb ?? '') : undefined;
    if (op) ids.add(op.id);
  }
  return [...ids].sort();
}

/** Every operation of the catalog; those that take a typed value (anything but a switch or a form field). */
export const ALL_OPS = catalog.operations.map((o) => o.id).sort();
export const TYPED_OPS = catalog.operations
  .filter((o) => Object.values(o.args as Record<string, { kind: string }>).some((a) => a.kind !== 'modal' && a.kind !== 'switch'))
  .map((o) => o.id)
  .sort();

/**
 * Every operation over hostile cloud data (already seeded), with cloud errors whose message,
 * code and field errors are hostile, Confirm clicks, a cancel, and watches that end in a
 * failed build (hostile last_error) and a successful one (hostile fqdn).
 */
export async function cloudTour(rig: BotRig, h: (i: number) => string): Promise<Outcome[]> {
  const out: Outcome[] = [];
  const state = rig.sandbox.state;
  const web = state.servers.find((s) => s.id === SEED_SERVERS.web.id)!;
  const r = async (command: string, opts?: Parameters<typeof run>[2]) => void out.push(await run(rig, command, opts));

  for (const c of [
    '', 'help', 'server', 'server status 101', 'server status 102', 'server status 103', 'server status 104',
    'server credentials 101', 'server ips 101', 'backup list 101', 'backup list 101 --page 2', 'backup list 102', 'ip subnets',
    'worker requirements', 'worker locations', 'worker templates', `worker status ${SEED_WORKER_UUID}`, 'sg show 7', 'sg show 8',
    'ssh-key list', 'plan list', 'plan list --page 2', 'plan list --location 1', 'account usage', 'account invoices',
    'account invoices --page 2', 'watch list', 'audit', 'audit --limit 50', 'policy', `policy ${CAROL.id}`,
    'server known', 'sg known', 'worker known', // hostile names remembered from the answers above
  ]) await r(c);
  await r('server credentials 101', { userId: CAROL.id }); // refused: goes to the audit channel

  // Forms list cloud-controlled choices (SSH key names, OS templates, locations, templates).
  await r('server reinstall 101');
  await r('worker deploy');

  // Changes through Confirm (the status message shows cloud names; the audit channel too).
  await r(`server rename 101 ${typedWord('plain-name')}`);
  await r('backup create 101 --name nightly');
  await r(`backup delete 101 ${state.backups[101]![0]!.uuid}`);
  await r('backup delete 102 ' + state.backups[102]![1]!.uuid, { cancel: true });
  await r('sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --port 8080 --comment ok');
  await r('sg delete-rule 7 71');
  await r(`sg attach 8 ${web.uuid}`);
  await r('sg deploy 7');
  await r('ssh-key delete 13');
  await r('server remove-ip 101 185.10.20.12');
  await r('ip reserve --location 1 --subnet sub-ams-1');
  await r('server reinstall 102 --template debian-12', { typed: state.servers.find((s) => s.id === 102)!.hostname });

  // Cloud errors with hostile message, code and field errors: for a read and after Confirm.
  rig.sandbox.addFault({ method: 'GET', path: '/servers/101/status', status: 422, code: 'VALIDATION_ERROR', message: h(1), details: { [h(2)]: [h(3)], name: [h(4)] } });
  await r('server status 101');
  rig.sandbox.addFault({ method: 'GET', path: '/servers/102/ips', status: 409, code: h(5), message: h(6) });
  await r('server ips 102');
  rig.sandbox.addFault({ method: 'POST', path: /\/servers\/101\/backups$/, status: 422, code: 'VALIDATION_ERROR', message: h(7), details: { name: [h(8)] } });
  await r('backup create 101 --name again');
  rig.sandbox.failNextSyncs(1);
  await r('sg deploy 8'); // fails with a sync error naming (hostile) nodes/groups; offers Retry sync

  state.account.workersAllowed = 10; // the seeded worker, three deploys and one by hand
  // Watches: a build that fails with a hostile last_error, one that succeeds at a hostile fqdn,
  // and one at a plain fqdn that is linked.
  for (const [name, ending] of [['fails', 'failed'], ['odd-fqdn', 'active'], ['plain', 'active']] as const) {
    const deployed = run(rig, `worker deploy --name ${name} --location 1 --repo https://github.com/acme/${name}.git`);
    const uuids = new Set(state.workers.map((w) => w.uuid));
    const w = await waitFor(() => state.workers.find((x) => !uuids.has(x.uuid)), { timeoutMs: 6000 }).catch(() => undefined);
    if (!w) {
      out.push({ command: `worker deploy ${name}`, how: `${STUCK}: nothing deployed` }, await deployed);
      continue;
    }
    if (ending === 'failed') Object.assign(w, { build: null, status: 'failed', lastDeploymentStatus: 'failed', runtimeStatus: null, lastError: h(9) });
    else if (name === 'odd-fqdn') {
      // A hostile deployment status once the watch has seen the first state (so a thread reply
      // tells of the change), then the sandbox's own end.
      Object.assign(w, { fqdnOverride: h(10), build: { ...w.build!, buildMs: 1200 } });
      const polled = () => rig.sandbox.requests.some((q) => q.userAgent === WATCHER_AGENT && q.path === `/workers/${w.uuid}/status`);
      await waitFor(polled, { timeoutMs: 3000 }).catch(() => undefined);
      w.lastDeploymentStatus = h(11);
    }
    else w.fqdnOverride = `plain-${w.uuid.slice(0, 8)}.workers.example.net`;
    out.push(await deployed);
    if (!(await finalBroadcast(rig, newestStatusTs(rig)))) out.push({ command: `worker ${name}`, how: `${STUCK}: no final broadcast` });
    await r(`worker status ${w.uuid}`);
  }
  // A watch by hand, listed and cancelled.
  const byHand = await rig.cloud.workers.deploy({ location_id: 1, name: 'by-hand', git_source: 'public', git_repository: 'https://github.com/acme/b.git' });
  const watchFrom = rig.responses.posts.length;
  await r(`worker status ${byHand.uuid} --watch`);
  await r('watch list');
  // Its id from the answers (cancelling one that already ended is answered too).
  const watchId = /`(w[a-z2-7]{8})`/.exec(JSON.stringify(rig.responses.posts.slice(watchFrom).map((p) => p.body)))?.[1];
  await r(`watch cancel ${watchId ?? 'wzzzzzzzz'}`);
  // Subscriptions, and the monitor's alerts and digest over the hostile data.
  await subscriptionCloudTour(rig, (c) => r(c), h);
  // Aliases: saved, run over the hostile data, listed, deleted.
  for (const c of ['alias create hw = server status $1', 'hw 101', 'alias list', 'alias delete hw']) await r(c);
  await r('audit --limit 100');
  await rig.bot.auditor.flush();
  return out;
}

/**
 * Every operation with hostile typed arguments: free strings where the grammar takes one
 * (rename, backup name, rule comment, worker name/repo/branch/commands), and hostile or
 * hostile-but-valid-looking ids that are refused with the input echoed.
 */
export async function typedTour(rig: BotRig, t: string, long: string = t): Promise<Outcome[]> {
  const out: Outcome[] = [];
  const q = typedWord(t);
  const state = rig.sandbox.state;
  const web = state.servers.find((s) => s.id === SEED_SERVERS.web.id)!;
  const r = async (command: string, opts?: Parameters<typeof run>[2]) => void out.push(await run(rig, command, opts));
  // Unquoted, so it splits into words: an unknown resource, verb or flag is echoed.
  const bare = t.replace(/["“”‘’']/g, '');
  for (const c of [
    bare, `server ${q}`, `server status 101 --${q}`, `server status ${q}`, `server status 101${t.slice(0, 30).replace(/\s|["“”‘’']/g, '')}`,
    `server status ${web.uuid}${q}`, `server credentials ${q}`, `server ips ${q}`, `server rename ${q} x`,
    `server rename 101 ${q}`,
    `server reinstall 101 --template debian-12 --ssh-keys ${q}`, `server remove-ip 101 ${q}`, `backup list ${q}`,
    `backup list 101 --page ${q}`, `backup create 101 --mode ${q}`, `backup create 101 --compression ${q}`,
    `backup delete 101 ${q}`, `backup delete 101 ${state.backups[101]![0]!.uuid}${q}`, `ip reserve --location ${q} --subnet ${q}`,
    `ip reserve --location 1 --subnet sub-ams-1 --quantity ${q}`, `worker status ${q}`, `worker deploy --name x --location ${q} --repo https://github.com/a/b.git`,
    `worker deploy --name ${q} --location 1 --repo ${q}`, `worker deploy --name x --location 1 --source ${q}`,
    `worker deploy --name x --location 1 --repo https://github.com/a/b.git --port ${q}`, `sg show ${q}`, `sg delete-rule 7 ${q}`,
    `sg attach 7 ${q}`, `sg deploy ${q}`, `sg add-rule 7 --type ${q} --action ACCEPT --protocol tcp`,
    `sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --source ${q}`, `sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --port ${q}`,
    `sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --priority ${q}`, `ssh-key delete ${q}`, `plan list --location ${q}`,
    `plan list --page ${q}`, `account invoices --page ${q}`, `watch cancel ${q}`, `audit --user ${q}`, `audit --limit ${q}`,
    `server status 101 --dry-run ${q}`, `policy ${q}`, `server status 101 --account ${q}`, ...subscriptionTypedCommands(q),
    // Aliases: a hostile name is refused; a hostile command is saved, listed, run (and refused by the parser).
    `alias create ${q} = server status $1`, `alias create hq = server status ${q}`, 'alias list', 'hq', `hq ${q}`, `alias delete ${q}`,
  ]) await r(c);
  // Free strings that are accepted: shown in the status message, dry runs and the audit channel
  // (an unknown template is passed on and refused by the cloud after Confirm).
  await r(`server reinstall 101 --template ${q}`, { typed: web.hostname });
  // The rename above taught the bot that server 101 is called q (names instead of numbers), so
  // this may reach a confirmation: cancelled, as the tour types no hostname.
  await r(`server reinstall ${q} --template debian-12`, { cancel: true });
  await r(`server rename 101 ${q} --dry-run`);
  await r(`server rename 101 ${typedWord(t.slice(0, 40))}`);
  await r(`backup create 101 --name ${q}`);
  await r(`backup create 101 --name ${typedWord(t.slice(0, 60))}`);
  await r(`sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --port 8080 --comment ${q}`);
  await r(`sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --port 8081 --comment ${typedWord(t.slice(0, 200))} --dry-run`);
  await r(`worker deploy --name ${typedWord(t.slice(0, 180))} --location 1 --repo https://github.com/acme/x.git --branch ${q} --install ${q} --build ${q} --start ${q} --base-dir ${q} --publish-dir ${q}`);
  await r(`worker deploy --name ${typedWord(t.slice(0, 100))} --location 1 --repo https://github.com/acme/x.git --dry-run`);
  // About 5,000 characters: refused as too long, with the value echoed (capped).
  const L = typedWord(long);
  for (const c of [`server status ${L}`, `server rename 101 ${L}`, `backup create 101 --name ${L}`, `worker deploy --name ${L} --location 1 --repo ${L}`,
    `sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --port 8080 --comment ${L}`, `audit --user ${L}`, ...subscriptionLongCommands(L)]) await r(c);
  await r(`backup create 102 --name ${q}`, { userId: CAROL.id }); // refused: echoed to the audit channel
  await r(`server rename 101 ${q}`, { userId: BOB.id });
  await r('audit --limit 100');
  await rig.bot.auditor.flush();
  return out;
}


/**
 * `fc.assert` whose failure message keeps the seed and the first failure but cuts the
 * counterexample (5,000-character values would bury the findings).
 */
export async function assertBriefly<T>(property: fc.IAsyncProperty<T>, params: fc.Parameters<T>): Promise<void> {
  try {
    await fc.assert(property, params);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(message.replace(/Counterexample: (.{0,400}).*\n/, (_m, head: string) => `Counterexample (cut): ${head}…\n`), { cause: (err as Error).cause });
  }
}

/**
 * Where hostile text was shown since `mark`, by kind of output: proof that the tour put it in
 * front of people (a view that dropped every value would pass the checker vacuously).
 */
export function reach(rig: BotRig, mark: { calls: number; posts: number }): Record<string, number> {
  const has = (v: unknown) => JSON.stringify(v).includes(HOSTILE_MARKER);
  const calls = rig.slack.calls.slice(mark.calls).filter((c) => c.response.ok && has(c.params));
  const kind = (c: (typeof calls)[number]) => {
    if (c.method.startsWith('views.')) return 'modal';
    if (c.method === 'chat.postEphemeral') return 'ephemeral';
    if (c.params.channel === AUDIT_CHANNEL.id) return 'audit channel';
    if (c.params.reply_broadcast === true || c.params.reply_broadcast === 'true') return 'final broadcast';
    if (c.params.thread_ts) return 'thread reply';
    return c.method === 'chat.update' ? 'status edit' : 'channel post';
  };
  const counts: Record<string, number> = { 'response_url': rig.responses.posts.slice(mark.posts).filter((p) => has(p.body)).length };
  for (const c of calls) counts[kind(c)] = (counts[kind(c)] ?? 0) + 1;
  return counts;
}
