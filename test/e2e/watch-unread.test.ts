/**
 * A watch whose polls keep failing still ends at its deadline: the token is revoked (401), the
 * bot's address refused (403), and its final post says what the bot last saw, since when it
 * could not read more and why — never that the work failed or succeeded. A workflow step
 * waiting on it is failed with the same truth. One JumpClock is the bot's and the sandbox's,
 * the watcher's loop is off (rig-watch.ts), and builds outlast the deadline, so only the
 * deadline can end these watches.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { functionExecutedEnvelope, newExecutionId } from '../rig/function-payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import { createJumpClock, rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { watchSteps } from './rig-watch.js';

const INTERVAL = 10_000;
/** Longer than a watch's 30 minutes: no build ends before the deadline does. */
const BUILD_MS = 2 * 60 * 60_000;
const DEADLINE_STEPS = (30 * 60_000) / INTERVAL + 10;
let rig: BotRig;
const clock = createJumpClock();
const watch = watchSteps(() => rig, clock, INTERVAL);
const { text, latest, buttons } = rigHelpers(() => rig);
beforeAll(async () => {
  rig = await startBotRig({ clock, sandbox: { clock, buildMs: BUILD_MS, reinstallMs: BUILD_MS }, watch: { intervalMs: INTERVAL }, watchLoop: false });
  rig.sandbox.state.account.workersAllowed = 20; // this file's builds never end
});
afterEach(() => rig.sandbox.clearFaults());
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const thread = (m: { channel: string; ts: string }) => rig.slack.messages.thread(m.channel, m.ts);
const stopped = (m: { channel: string; ts: string }) => thread(m).filter((r) => text(r).includes('Stopped watching'));
const statusPolls = (uuid: string) => rig.sandbox.requests.filter((r) => r.method === 'GET' && r.path === `/workers/${uuid}/status`).length;

async function deployAndBegin(name: string) {
  const from = rig.slack.calls.length;
  await rig.sendCommand(`worker deploy --name ${name} --location 1 --repo https://github.com/acme/${name}.git`);
  const msg = await rig.postedSince(from);
  await rig.click(msg, 'op_confirm', ALICE.id);
  await watch.begun();
  await watch.tick(); // the first look: queued
  const uuid = rig.sandbox.state.workers.at(-1)!.uuid;
  return { msg, uuid };
}

describe('a watch whose every poll fails', () => {
  it('token revoked after the first look: ends at the deadline as expired, saying what it last saw, since when and why', async () => {
    const { msg, uuid } = await deployAndBegin('revoked');
    const polled = statusPolls(uuid);
    rig.sandbox.addFault({ method: 'GET', path: `/workers/${uuid}/status`, status: 401, code: 'UNAUTHENTICATED', message: 'Token revoked', times: Infinity });
    const [end] = await watch.stepUntil(() => stopped(msg).length > 0 && stopped(msg), DEADLINE_STEPS);
    const said = text(end!);
    expect(said).toContain('Stopped watching worker `revoked`');
    expect(said).toMatch(/the bot could not read its state since .*UTC/);
    expect(said).toContain('last seen: status pending · deployment queued');
    expect(said).toContain('so whether it finished is unknown');
    expect(said).toContain('The cloud refused the bot’s API token.');
    // Nothing it has not seen: neither a failure nor a success.
    expect(said).not.toMatch(/did not come up|is active|failed/);
    expect(JSON.stringify(end!.blocks)).toContain('"action_id":"watch_keep"');
    const record = (await rig.store.watches.listRecent(1))[0]!;
    expect(record.status).toBe('expired');
    expect(record.outcome).toBeNull();
    // The status message no longer says it is watching, and says why it stopped.
    const status = text(latest(msg));
    expect(status).not.toContain('watching,');
    expect(status).toContain('not read since');
    expect(status).toContain('The cloud refused the bot’s API token.');
    // What the cloud received: polls backed off (no more than one per interval), then none.
    const during = statusPolls(uuid) - polled;
    expect(during).toBeGreaterThan(1);
    expect(during).toBeLessThanOrEqual((30 * 60_000) / INTERVAL + 2);
    const posted = rig.slack.callsTo('chat.postMessage').length;
    await watch.step(6);
    expect(statusPolls(uuid) - polled).toBe(during);
    expect(rig.slack.callsTo('chat.postMessage')).toHaveLength(posted);
    expect(stopped(msg)).toHaveLength(1);
  });

  it('Keep watching after the token is fixed: the next look reads the state again and the watch goes on', async () => {
    const { msg, uuid } = await deployAndBegin('refixed');
    rig.sandbox.addFault({ method: 'GET', path: `/workers/${uuid}/status`, status: 403, code: 'IP_NOT_ALLOWED', message: 'IP not allowed', times: Infinity });
    const [end] = await watch.stepUntil(() => stopped(msg).length > 0 && stopped(msg), DEADLINE_STEPS);
    expect(text(end!)).toContain('The cloud refuses API calls from the bot’s IP address.');
    rig.sandbox.clearFaults();
    await rig.click(end!, 'watch_keep', ALICE.id);
    await waitFor(async () => ((await rig.store.watches.listRecent(1))[0]!.status === 'active' ? true : undefined), { timeoutMs: 5000 });
    await watch.tick();
    const record = (await rig.store.watches.listRecent(1))[0]!;
    expect(record.status).toBe('active');
    expect(record.unread).toBeNull();
    expect(text(latest(msg))).not.toContain('not read since');
    await rig.bot.watcher.cancel(record.id, ALICE.id); // its build outlasts this file
  });
});

describe('a workflow step waiting on such a watch', () => {
  it('is failed with the truth: the state could not be read, so whether it finished is unknown, and why', async () => {
    const executionId = newExecutionId();
    rig.slack.executions.start(executionId, 'worker_deploy');
    const inputs = { channel: OPS_CHANNEL.id, requester: ALICE.id, name: 'wf-unread', location: rig.sandbox.state.locations[0]!.id, repo: 'https://github.com/example/app' };
    const from = rig.slack.calls.length;
    expect((await rig.send.event(functionExecutedEnvelope({ callbackId: 'worker_deploy', inputs, executionId }))).status).toBe(200);
    const card = await rig.postedSince(from);
    await rig.click(latest(card), 'op_confirm', ALICE.id);
    await rig.bot.settled();
    await watch.begun();
    await watch.tick();
    const uuid = rig.sandbox.state.workers.find((w) => w.name === 'wf-unread')!.uuid;
    rig.sandbox.addFault({ method: 'GET', path: `/workers/${uuid}/status`, status: 401, code: 'UNAUTHENTICATED', times: Infinity });
    await watch.stepUntil(() => stopped(card).length > 0, DEADLINE_STEPS);
    await rig.bot.steps.tick();
    const calls = await waitFor(() => {
      const done = rig.slack.calls.filter((c) => c.method.startsWith('functions.complete') && c.params.function_execution_id === executionId && c.response.ok);
      return done.length ? done : undefined;
    }, { timeoutMs: 10_000 });
    expect(calls.map((c) => c.method)).toEqual(['functions.completeError']);
    const error = String(calls[0]!.params.error);
    expect(error).toMatch(/^Worker `wf-unread`: the bot could not read its state since .+ UTC \(last seen `pending`\), so whether it finished is unknown: The cloud refused the bot’s API token\./);
    expect(error).not.toMatch(/did not come up|was not finished/);
    expect(visibleText({ text: '', blocks: latest(card).blocks ?? [] })).toContain('not read since');
  });
});
