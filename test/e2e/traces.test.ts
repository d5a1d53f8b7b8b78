/**
 * Traces end to end (issue 24): the real bot with OTLP/HTTP pointed at a receiver this test
 * starts. A change made by a slash command is one trace, from the Slack request through parse,
 * access and the store to the cloud request and the status post. A change that waits for a
 * Confirm is two traces: the command's (parse, access, the store, the status post), and the
 * click's, whose send is linked to the command's and carries the cloud request, the watch's
 * polls and their thread posts. Spans carry no secret and no user text,
 * and log lines written during a request carry its trace id. The deploy's build and its watch
 * move on the injected clock (rig-watch.ts): each pass is one jumped interval and one tick.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../rig/otlp-receiver.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOT_TOKEN, OPS_CHANNEL, SIGNING_SECRET } from '../rig/workspace.js';
import { CLOUD_TOKEN, createJumpClock, rigHelpers, startBotRig, type BotRig } from './bot-rig.js';
import { watchSteps } from './rig-watch.js';

const COLLECTOR_KEY = 'collector-key-0123456789';
const NEW_NAME = 'renamed-by-trace';
const REPO = 'https://github.com/acme/traced-api.git';
const SERVER = 2; // OTLP's SpanKind numbers
const CLIENT = 3;

const INTERVAL = 10_000;
let rig: BotRig;
let otlp: OtlpReceiver;
const clock = createJumpClock();
const watch = watchSteps(() => rig, clock, INTERVAL);
const { text, until, latest: latestOf } = rigHelpers(() => rig);
beforeAll(async () => {
  otlp = await startOtlpReceiver();
  rig = await startBotRig({
    clock,
    sandbox: { clock, buildMs: 60_000 },
    watch: { intervalMs: INTERVAL },
    watchLoop: false,
    // One piece of work after an ack at a time: the next waits in the queue (after-ack.ts), and
    // is started from the end of the one before, so its trace must come with it, not from there.
    afterAck: { running: 1 },
    telemetry: {
      metricsPort: 0,
      metricsToken: undefined,
      traces: { url: otlp.url, headers: { 'x-collector-key': COLLECTOR_KEY }, serviceName: 'cloudbot-e2e', resource: { 'deployment.environment': 'test' }, sampler: 'parentbased_always_on', ratio: 1 },
    },
  });
});
afterAll(async () => {
  await rig.close();
  await otlp.close();
  expect(rig.slack.violations).toEqual([]);
});

const byId = (id: string) => otlp.spans.find((s) => s.spanId === id);
/** The span's parents up to its trace's root (the root last); undefined if a parent is missing. */
function chain(span: ReceivedSpan): ReceivedSpan[] | undefined {
  const out = [span];
  for (let s = span; s.parentSpanId; ) {
    const parent = byId(s.parentSpanId);
    if (!parent || parent.traceId !== s.traceId) return undefined;
    out.push((s = parent));
  }
  return out;
}
const rootOf = (span: ReceivedSpan) => chain(span)?.at(-1);
/** Everything buffered goes to the receiver (forceFlush resolves once the export was answered). */
async function flushed(): Promise<void> {
  await rig.bot.settled();
  await rig.bot.telemetry.tracing.flush();
}

describe('a slash command that changes something', () => {
  it('is one trace: the Slack request is the root of the store calls, the cloud request and the status post', async () => {
    const from = rig.slack.calls.length;
    await rig.sendCommand(`server rename 101 ${NEW_NAME}`);
    const msg = await rig.postedSince(from);
    await until(msg, 'is now called');
    expect(rig.mutations().map((r) => `${r.method} ${r.rawPath}`)).toEqual(['PATCH /v2/servers/101/rename']);
    await flushed();

    const patch = otlp.spans.filter((s) => s.name === 'cloud PATCH /servers/{server}/rename');
    expect(patch).toHaveLength(1);
    expect(patch[0]).toMatchObject({ kind: CLIENT, attributes: { 'http.request.method': 'PATCH', 'url.template': '/servers/{server}/rename', 'http.response.status_code': 200 } });
    const root = rootOf(patch[0]!)!;
    expect(root).toMatchObject({ name: 'slack command', kind: SERVER, attributes: { 'cloudbot.request.kind': 'command' } });
    expect(root.resource).toMatchObject({ 'service.name': 'cloudbot-e2e', 'deployment.environment': 'test' });

    const trace = otlp.spans.filter((s) => s.traceId === root.traceId);
    // Every span of the trace hangs from the root: nothing was orphaned by the detached work after the ack.
    for (const s of trace) expect(rootOf(s)?.spanId, s.name).toBe(root.spanId);
    const names = trace.map((s) => s.name);
    expect(names).toContain('slack chat.postMessage'); // the status message
    expect(names).toContain('slack chat.update'); // … edited to done
    expect(names).toContain('store operations.create');
    // The access decision, by tier and verdict (and the catalog id), never the person.
    expect(trace.find((s) => s.name === 'access check')?.attributes).toEqual({ 'cloudbot.tier': 'change', 'cloudbot.operation': 'server.rename', 'cloudbot.access.allowed': true });
    expect(names.filter((n) => n.startsWith('cloud '))).toContain('cloud PATCH /servers/{server}/rename');
    // Parse is a step of the request, named by the catalog id the text came to, never by the text.
    expect(trace.find((s) => s.name === 'parse')).toMatchObject({ parentSpanId: root.spanId, attributes: { 'cloudbot.parse.outcome': 'run', 'cloudbot.operation': 'server.rename' } });
    // Sent without a Confirm: the send is in the command's own trace, with no link to itself.
    const execute = trace.find((s) => s.name === 'change execute')!;
    expect(execute).toMatchObject({ parentSpanId: root.spanId, links: [] });
    expect(patch[0]!.parentSpanId).toBe(execute.spanId);
    expect(otlp.lastHeaders['x-collector-key']).toBe(COLLECTOR_KEY);

    // Log lines of the request carry its trace id, and the span they were written in.
    const lines = rig.logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const succeeded = lines.filter((l) => l.msg === 'change succeeded' && l.op === 'server.rename');
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]).toMatchObject({ trace_id: root.traceId });
    expect(trace.map((s) => s.spanId)).toContain(succeeded[0]!.span_id);
  });

  it('a confirmed deploy: the click’s send links to the command’s trace and reaches the cloud request, the watch’s polls and their thread posts', async () => {
    const from = rig.slack.calls.length;
    await rig.sendCommand(`worker deploy --name traced-api --location 1 --repo ${REPO}`);
    const msg = await rig.postedSince(from);
    await rig.click(msg, 'op_confirm', ALICE.id);
    await watch.begun();
    await watch.tick();
    await watch.stepUntil(() => rig.slack.messages.thread(msg.channel, msg.ts).find((m) => /is active at/.test(text(m))));
    expect((await rig.store.watches.listRecent(1))[0]?.status).toBe('done'); // recorded by the pass that posted the end

    const post = () => otlp.spans.filter((s) => s.name === 'cloud POST /workers');
    const root = () => rootOf(post()[0]!)!;
    // The watch's polls: children of the click that started it, each with its cloud read and its thread posts.
    const polls = () => otlp.spans.filter((s) => s.name === 'watch poll' && s.traceId === root().traceId);
    const under = (p: ReceivedSpan) => otlp.spans.filter((s) => s.parentSpanId === p.spanId);
    const replies = () => polls().flatMap(under).filter((s) => s.name === 'slack chat.postMessage' && s.attributes['cloudbot.slack.thread_reply'] === true);
    const thread = rig.slack.messages.thread(msg.channel, msg.ts);
    // A poll's span ends (and is exported) once its thread posts and records are through.
    await waitFor(async () => (await flushed(), post().length === 1 && replies().length === thread.length) || undefined, { timeoutMs: 5000 });

    expect(post()).toHaveLength(1);
    expect(root()).toMatchObject({ name: 'slack click', kind: SERVER, attributes: { 'cloudbot.request.kind': 'click' } });

    // The slash command's own trace: the request, then parse, access and the store, each a child of it.
    const parses = otlp.spans.filter((s) => s.name === 'parse' && s.attributes['cloudbot.operation'] === 'worker.deploy');
    expect(parses).toHaveLength(1);
    const command = byId(parses[0]!.parentSpanId!)!;
    expect(command).toMatchObject({ name: 'slack command', kind: SERVER, parentSpanId: undefined });
    expect(parses[0]!.attributes).toEqual({ 'cloudbot.parse.outcome': 'run', 'cloudbot.parse.alias': false, 'cloudbot.operation': 'worker.deploy' });
    const inCommand = otlp.spans.filter((s) => s.traceId === command.traceId);
    const child = (name: string) => inCommand.find((s) => s.name === name && s.parentSpanId === command.spanId);
    expect(child('access check')?.attributes).toMatchObject({ 'cloudbot.operation': 'worker.deploy', 'cloudbot.access.allowed': true });
    expect(child('store operations.create')).toBeDefined();
    expect(child('slack chat.postMessage')).toBeDefined(); // the status message with its Confirm button
    expect(inCommand.map((s) => s.name)).not.toContain('cloud POST /workers'); // nothing is sent before the click

    // The click's send: a child of the click, linked to the command that asked for it.
    const executes = otlp.spans.filter((s) => s.name === 'change execute' && s.traceId === root().traceId);
    expect(executes).toHaveLength(1);
    const execute = executes[0]!;
    expect(execute).toMatchObject({ parentSpanId: root().spanId, attributes: { 'cloudbot.operation': 'worker.deploy', 'cloudbot.tier': 'billing' } });
    expect(execute.links).toHaveLength(1);
    expect(execute.links[0]!.traceId).toBe(command.traceId);
    expect(inCommand.map((s) => s.spanId)).toContain(execute.links[0]!.spanId);
    // … whose children are the cloud request (by its template, no ids) and the watch that posts to the thread.
    expect(post()[0]).toMatchObject({ parentSpanId: execute.spanId, kind: CLIENT, attributes: { 'http.request.method': 'POST', 'url.template': '/workers', 'http.response.status_code': 201 } });
    // Every thread post (among them the "is active" one) hangs from a poll of the watch the send started.
    expect(replies().length).toBe(thread.length);
    for (const reply of replies()) expect(chain(reply)!.map((s) => s.name)).toEqual(['slack chat.postMessage', 'watch poll', 'change execute', 'slack click']);
    // The record keeps the link (ids and flags only), so a send after a restart finds it too.
    const record = (await rig.store.operations.get((await rig.store.watches.listRecent(1))[0]!.operationId!))!;
    expect(record.facts.traceparent).toBe(`00-${command.traceId}-${execute.links[0]!.spanId}-01`);
    expect(polls().length).toBeGreaterThan(1);
    for (const p of polls()) expect(rootOf(p)?.spanId).toBe(root().spanId);
    expect(polls().flatMap(under).map((s) => s.name)).toContain('cloud GET /workers/{worker}/status');
    expect(thread.length).toBeGreaterThan(0);
  });

  it('work that waited its turn after the ack stays in its own request’s trace', async () => {
    const from = rig.slack.calls.length;
    await Promise.all([rig.sendCommand('server rename 102 queued-one'), rig.sendCommand('server rename 103 queued-two')]);
    await waitFor(() => (rig.postsSince(from).filter((m) => /is now called/.test(text(latestOf(m)))).length === 2) || undefined, { timeoutMs: 5000 });
    const renames = () => otlp.spans.filter((s) => s.name === 'cloud PATCH /servers/{server}/rename').slice(1);
    await waitFor(async () => (await flushed(), renames().length === 2) || undefined, { timeoutMs: 5000 });
    const roots = renames().map((s) => rootOf(s)!);
    expect(roots.map((r) => r.name)).toEqual(['slack command', 'slack command']);
    expect(roots[0]!.spanId).not.toBe(roots[1]!.spanId);
  });

  it('a cloud error’s code is an attribute only when it is a word: a code that quotes anything else is not exported', async () => {
    const hostile = `NOT FOUND: server status 101 for ${ALICE.id} in ${OPS_CHANNEL.id} ${'x'.repeat(80)}`;
    rig.sandbox.addFault({ method: 'GET', path: '/servers/101/status', status: 404, code: hostile, message: 'no such server' });
    const from = otlp.spans.length;
    await rig.command('server status 101');
    const gets = () => otlp.spans.slice(from).filter((s) => s.name === 'cloud GET /servers/{server}/status');
    await waitFor(async () => (await flushed(), gets().length === 1) || undefined, { timeoutMs: 5000 });
    expect(gets()[0]).toMatchObject({ status: { code: 2 }, attributes: { 'http.response.status_code': 404, 'error.type': 'error' } });
    expect(otlp.bodies.join('\n')).not.toContain('NOT FOUND');
  });

  it('no span carries a token, the command’s text, a name or an id of a person, channel or resource', async () => {
    await flushed();
    expect(otlp.refused).toEqual([]);
    const all = otlp.bodies.join('\n');
    for (const secret of [BOT_TOKEN, CLOUD_TOKEN, SIGNING_SECRET, COLLECTOR_KEY]) expect(all).not.toContain(secret);
    for (const typed of [NEW_NAME, 'queued-one', 'queued-two', 'traced-api', REPO, 'acme', 'rename 101', 'worker deploy', '--name', 'web-1', ALICE.id, OPS_CHANNEL.id, '/servers/101']) expect(all, typed).not.toContain(typed);
    // Every attribute is a word of the bot's (a kind, a method, a catalog id, a template), a number or a flag: no sentence, nothing typed.
    for (const span of otlp.spans)
      for (const [key, value] of Object.entries(span.attributes)) if (typeof value === 'string') expect(value, `${span.name} ${key}`).toMatch(/^[A-Za-z0-9_.{}/-]{1,64}$/);
    const uuids = rig.sandbox.state.workers.map((w) => w.uuid);
    for (const uuid of uuids) expect(all).not.toContain(uuid);
    // Nor a response_url (it posts as the bot for 30 minutes) or a trigger id (it opens forms).
    const answered = [...new Set(rig.responses.posts.map((p) => new URL(p.url).pathname))];
    expect(answered.length).toBeGreaterThan(0);
    for (const path of answered) expect(all).not.toContain(path);
    expect(all).not.toMatch(/\d{10}\.\d{9}\.[0-9a-f]{32}/);
  });
});
