/**
 * `/metrics` end to end (issue 24): the real bot in HTTP mode, scraped after a command, a click,
 * a watch and an alert, the answer parsed with a Prometheus text parser. Every metric README
 * names is there with the type README gives, carries only the labels README lists, and every
 * label value is a bounded word: no id, name, user or channel. METRICS_TOKEN is required.
 */
import { readFileSync } from 'node:fs';
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../src/operations/index.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, BOT_TOKEN, CAROL, OPS_CHANNEL, SIGNING_SECRET } from '../rig/workspace.js';
import { CLOUD_TOKEN, rigHelpers, startBotRig, visibleText, WATCHER_AGENT, type BotRig } from './bot-rig.js';
import { after, postedIn, powerFromPanel } from './rig-alerts.js';
import { PANEL, press, share, shortcut, teachNames } from './surface-rig.js';

const TOKEN = 'metrics-token-0123456789';
const INTERVAL = 60_000;
const RECHECK = 1000;
const REPO = 'https://github.com/acme/metered-api.git';

/** README › Metrics: name → type and labels, from its table. */
function readmeMetrics(): Map<string, { type: string; labels: string[] }> {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('### Metrics'), readme.indexOf('### Traces'));
  const rows = [...section.matchAll(/^\| `([a-z_]+)` \| (counter|gauge|histogram) \|([^|]*)\|/gm)];
  return new Map(rows.map((m) => [m[1]!, { type: m[2]!, labels: [...m[3]!.matchAll(/`([a-z_]+)`/g)].map((l) => l[1]!) }]));
}

/** Every sample line of the exposition: name, labels, value (histograms' _bucket/_sum/_count lines included). */
function samples(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const out = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

let rig: BotRig;
const { text } = rigHelpers(() => rig);
beforeAll(async () => {
  rig = await startBotRig({
    // The build takes long enough that the watch is still open when scraped.
    sandbox: { buildMs: 120_000 },
    watch: { intervalMs: 150 },
    monitor: { intervalMs: INTERVAL, holdPolls: 2, monitorLoop: false, monitorRecheckMs: RECHECK, postSpacingMs: 0 },
    telemetry: { metricsPort: 0, metricsToken: TOKEN, traces: undefined },
  });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const metricsUrl = () => rig.eventsUrl.replace(/\/slack\/events$/, '/metrics');

describe('/metrics', () => {
  it('wants the bearer token when METRICS_TOKEN is set', async () => {
    expect((await fetch(metricsUrl())).status).toBe(401);
    expect((await fetch(metricsUrl(), { headers: { authorization: 'Bearer not-the-token-at-all' } })).status).toBe(401);
    expect((await fetch(metricsUrl(), { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it('after a command, a click, a watch and an alert: every metric README names, with its type and bounded labels', async () => {
    // An alert: a subscribed server powered off from the panel, seen off twice (first: the clock jumps
    // past the monitor's interval, and a watch's lease is measured against the same clock).
    await rig.command('subscribe server 101', { userId: BOB.id });
    await after(rig, 0);
    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(postedIn(rig, OPS_CHANNEL.id, /Server `101` is powered off/)).toHaveLength(1);
    // A command (a read).
    const read = await rig.command('server status 101');
    expect(visibleText(read.final)).toContain('101');
    // A click that confirms a change, which starts a watch; its first poll edits the status message.
    const before = Date.now();
    await rig.sendCommand(`worker deploy --name metered-api --location 1 --repo ${REPO}`);
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    await rig.click(msg, 'op_confirm', ALICE.id);
    await waitFor(() => rig.sandbox.requests.some((r) => r.userAgent === WATCHER_AGENT && /\/workers\/[^/]+\/status$/.test(r.path)) || undefined, { timeoutMs: 10_000 });
    await rig.bot.settled();

    const res = await fetch(metricsUrl(), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const exposition = await res.text();
    const families = new Map(parsePrometheusTextFormat(exposition).map((f: MetricFamily) => [f.name, f]));
    const lines = samples(exposition);
    const readme = readmeMetrics();
    expect(readme.size).toBeGreaterThan(15);

    // Every metric README names, with README's type.
    for (const [name, { type }] of readme) expect(families.get(name)?.type, name).toBe(type.toUpperCase());
    // … and every metric of ours is in README.
    for (const name of families.keys()) if (name.startsWith('cloudbot_')) expect(readme.has(name), `${name} is not in README`).toBe(true);

    // Only README's labels (and `le` of a histogram's buckets), and each value a bounded word.
    const operations = new Set(catalog.operations.map((o) => o.id));
    const bounded: Record<string, (v: string) => boolean> = {
      kind: (v) => ['command', 'click', 'view', 'event', 'step', 'other'].includes(v),
      method: (v) => /^[a-z]+(\.[a-zA-Z]+)+$/.test(v),
      outcome: (v) => ['ok', 'rate_limited', 'refused', 'failed', 'requested', 'succeeded', 'cancelled', 'expired'].includes(v),
      endpoint: (v) => /^(GET|POST|PATCH|DELETE)( \/| )(\/?([a-z-]+|\{[a-z_]+\}))+$/.test(v) && !/\d/.test(v),
      status: (v) => /^(\d{3}|[a-z_]+)$/.test(v),
      operation: (v) => operations.has(v),
      store: (v) => /^[a-zA-Z]+$/.test(v) && v in rig.store,
      op: (v) => /^[a-zA-Z]+$/.test(v),
      le: (v) => v === '+Inf' || Number.isFinite(Number(v)),
    };
    for (const s of lines.filter((l) => l.name.startsWith('cloudbot_'))) {
      const family = [...readme.keys()].find((n) => s.name === n || s.name === `${n}_bucket` || s.name === `${n}_sum` || s.name === `${n}_count`);
      expect(family, s.name).toBeDefined();
      for (const [label, value] of Object.entries(s.labels)) {
        expect([...readme.get(family!)!.labels, 'le'], `${s.name} ${label}`).toContain(label);
        expect(bounded[label]!(value), `${s.name}{${label}="${value}"}`).toBe(true);
      }
    }
    // Nothing that names a person, a channel, a resource or a secret, anywhere in the answer.
    const uuid = rig.sandbox.state.workers.at(-1)!.uuid;
    for (const word of [ALICE.id, BOB.id, OPS_CHANNEL.id, uuid, 'metered-api', 'web-1', '/servers/101', BOT_TOKEN, CLOUD_TOKEN, SIGNING_SECRET, TOKEN]) expect(exposition, word).not.toContain(word);

    // What happened is counted where README says.
    const value = (name: string, labels: Record<string, string> = {}) =>
      lines.filter((l) => l.name === name && Object.entries(labels).every(([k, v]) => l.labels[k] === v)).reduce((sum, l) => sum + l.value, 0);
    expect(value('cloudbot_ack_seconds_count', { kind: 'command' })).toBeGreaterThanOrEqual(3);
    expect(value('cloudbot_ack_seconds_count', { kind: 'click' })).toBe(1);
    expect(value('cloudbot_ack_seconds_bucket', { kind: 'click', le: '3' })).toBe(1);
    expect(value('cloudbot_answer_seconds_count', { kind: 'command' })).toBeGreaterThanOrEqual(3);
    expect(value('cloudbot_answer_seconds_count', { kind: 'click' })).toBe(1);
    expect(value('cloudbot_slack_api_calls_total', { method: 'chat.postMessage', outcome: 'ok' })).toBeGreaterThanOrEqual(2);
    expect(value('cloudbot_cloud_requests_total', { endpoint: 'GET /servers/{server}/status', status: '200' })).toBeGreaterThanOrEqual(3);
    expect(value('cloudbot_cloud_requests_total', { endpoint: 'POST /workers' })).toBe(1);
    expect(value('cloudbot_cloud_request_seconds_count', { endpoint: 'GET /workers/{worker}/status' })).toBeGreaterThanOrEqual(1);
    expect(value('cloudbot_changes_total', { operation: 'worker.deploy', outcome: 'succeeded' })).toBe(1);
    expect(value('cloudbot_watches_active')).toBe(1);
    expect(value('cloudbot_watches_leased')).toBe(1);
    expect(value('cloudbot_subscriptions_active')).toBe(1);
    expect(value('cloudbot_subscriptions_leased')).toBe(1);
    expect(value('cloudbot_alerts_firing')).toBe(1);
    expect(value('cloudbot_request_budget_taken_total')).toBeGreaterThanOrEqual(3);
    expect(value('cloudbot_store_operation_seconds_count', { store: 'watches', op: 'claimDue' })).toBeGreaterThan(0);
    expect(value('process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(text(rig.slack.messages.get(msg.channel, msg.ts)!)).toContain('metered-api');
  });

  it('a message shortcut, a button of its list and a link unfurl: each answer is counted under the kind its ack was', async () => {
    await teachNames(rig);
    await rig.bot.settled();
    /** cloudbot_ack_seconds and cloudbot_answer_seconds counts by kind, now. */
    const counts = async () => {
      const lines = samples(await (await fetch(metricsUrl(), { headers: { authorization: `Bearer ${TOKEN}` } })).text());
      const of = (name: string) => Object.fromEntries(['command', 'click', 'view', 'event', 'step', 'other'].map((k) => [k, lines.filter((l) => l.name === name && l.labels.kind === k).reduce((n, l) => n + l.value, 0)]));
      return { ack: of('cloudbot_ack_seconds_count'), answer: of('cloudbot_answer_seconds_count') };
    };
    const delta = (a: Record<string, number>, b: Record<string, number>) => Object.fromEntries(Object.entries(b).filter(([k, v]) => v !== a[k]).map(([k, v]) => [k, v - a[k]!]));
    const step = async (act: () => Promise<unknown>) => {
      const before = await counts();
      await act();
      await rig.bot.settled();
      const after = await counts();
      return { ack: delta(before.ack, after.ack), answer: delta(before.answer, after.answer) };
    };
    let modal: Awaited<ReturnType<typeof shortcut>> | undefined;
    expect(await step(async () => (modal = await shortcut(rig, 'is web-1 down?')))).toEqual({ ack: { command: 1 }, answer: { command: 1 } });
    expect(await step(() => press(rig, modal!, '101', 'status'))).toEqual({ ack: { click: 1 }, answer: { click: 1 } });
    expect(await step(() => share(rig, [`${PANEL}/servers/101`]))).toEqual({ ack: { event: 1 }, answer: { event: 1 } });
  });

  it('cloudbot_changes_total counts changes only: a credentials read, the audit trail and the policy view are not; a change access refused is, as refused', async () => {
    const changes = async () =>
      samples(await (await fetch(metricsUrl(), { headers: { authorization: `Bearer ${TOKEN}` } })).text())
        .filter((l) => l.name === 'cloudbot_changes_total')
        .map((l) => `${l.labels.operation} ${l.labels.outcome} ${l.value}`);
    const before = await changes();
    // Reads of the `secret` tier (admins only): they change nothing.
    expect(visibleText((await rig.command('server credentials 101', { userId: ALICE.id })).final)).toContain('101');
    await rig.command('audit --limit 5', { userId: ALICE.id });
    await rig.command('policy', { userId: ALICE.id });
    // A change a viewer may not make: refused at the door, and counted so.
    await rig.command('server rename 102 not-yours', { userId: CAROL.id });
    await rig.bot.settled();
    const after = await changes();
    const added = after.filter((s) => !before.includes(s));
    expect(added).toEqual(['server.rename refused 1']);
  });

  it('with tracing off, log lines carry no trace id', () => {
    expect(rig.logLines.some((l) => l.includes('trace_id'))).toBe(false);
  });
});
