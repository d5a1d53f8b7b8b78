/**
 * Watches end to end: a deploy and a reinstall followed to their end through the real bot.
 * The bot and the sandbox share one JumpClock and the watcher's loop is off: each watch pass is
 * one interval the test jumps and one tick it makes (rig-watch.ts), so builds of a minute move
 * only when the test says so and no assertion waits for real time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, CAROL, OPS_CHANNEL } from '../rig/workspace.js';
import { createJumpClock, rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { watchSteps } from './rig-watch.js';

const INTERVAL = 10_000;
const BUILD_MS = 60_000;
let rig: BotRig;
const clock = createJumpClock();
const watch = watchSteps(() => rig, clock, INTERVAL);
const { text, latest, confirmByTyping } = rigHelpers(() => rig);
beforeAll(async () => {
  rig = await startBotRig({ clock, sandbox: { clock, buildMs: BUILD_MS, reinstallMs: BUILD_MS }, watch: { intervalMs: INTERVAL }, watchLoop: false });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const thread = (m: { channel: string; ts: string }) => rig.slack.messages.thread(m.channel, m.ts);
const broadcasts = (m: { channel: string; ts: string }) =>
  rig.slack.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === m.ts && (c.params.reply_broadcast === true || c.params.reply_broadcast === 'true'));

describe('a worker deploy is followed to its end', () => {
  it('thread replies per state change, the status message edited, the final state broadcast once', async () => {
    const from = rig.slack.calls.length;
    await rig.sendCommand('worker deploy --name api --location 1 --repo https://github.com/acme/api.git');
    const msg = await rig.postedSince(from);
    await rig.click(msg, 'op_confirm', ALICE.id);
    await watch.begun();
    await watch.tick(); // the first look: queued
    const final = await watch.stepUntil(() => broadcasts(msg)[0]);
    const uuid = rig.sandbox.state.workers.at(-1)!.uuid;
    expect(JSON.stringify(final.params.blocks)).toMatch(/Worker `api` is active at <https:/);
    // Intermediate states stay in the thread; the end is one broadcast reply.
    const replies = thread(msg).map((r) => text(r));
    expect(replies.some((r) => r.includes('deployment in progress'))).toBe(true);
    expect(replies.at(-1)).toMatch(/Worker `api` is active at/);
    // Nothing more later: six intervals pass, each with its pass, and nothing is posted.
    const posted = rig.slack.callsTo('chat.postMessage').length;
    await watch.step(6);
    expect(rig.slack.callsTo('chat.postMessage')).toHaveLength(posted);
    expect(broadcasts(msg)).toHaveLength(1);
    // While the worker builds, the status message is never headed done (issue 14): only the
    // edit that carries the watch's end says so.
    const edits = rig.slack.callsTo('chat.update').filter((c) => c.params.ts === msg.ts).map((c) => visibleText({ text: String(c.params.text), blocks: c.params.blocks as unknown[] }));
    const building = edits.filter((e) => !e.includes('finished after'));
    expect(building.some((e) => e.includes('— building'))).toBe(true);
    for (const e of building) expect(e).not.toContain('— done');
    // The status message says done and carries the watch line.
    const status = text(latest(msg));
    expect(status).toContain('— done');
    expect(status).toMatch(/status active · deployment finished · runtime running · finished after/);
    const polls = rig.sandbox.requests.filter((r) => r.path === `/workers/${uuid}/status`).length;
    // Polls for one 60 s build at a 10 s base interval, the six passes after its end included.
    process.stderr.write(`[watch] build polls: ${polls}\n`);
    expect(polls).toBeLessThanOrEqual(BUILD_MS / INTERVAL + 2);
  });
});

describe('a reinstall is followed until its credentials are ready', () => {
  it('final broadcast once; the new password to the requester only', async () => {
    const from = rig.slack.calls.length;
    await rig.sendCommand('server reinstall 104 --template debian-12');
    const msg = await rig.postedSince(from);
    const pollsBefore = rig.sandbox.requests.length;
    await confirmByTyping(msg, 'staging-1.example.net');
    await watch.begun();
    await watch.tick();
    const final = await watch.stepUntil(() => broadcasts(msg)[0]);
    expect(JSON.stringify(final.params.blocks)).toMatch(/reinstalled and its credentials are ready/);
    const password = rig.sandbox.state.servers.find((s) => s.id === 104)!.rootPassword!;
    // Shown once (issue 14): the change's private reply, not again when the watch ends.
    const carrying = () => rig.slack.messages.ephemeral(ALICE.id).filter((e) => JSON.stringify(e.blocks).includes(password));
    await waitFor(() => carrying().length >= 1, { timeoutMs: 5000 });
    expect((await rig.store.watches.listRecent(1))[0]?.status).toBe('done'); // the pass that posted the end recorded it
    const posted = rig.slack.calls.length;
    await watch.step(4);
    expect(rig.slack.calls.slice(posted).filter((c) => c.method.startsWith('chat.post'))).toEqual([]);
    expect(carrying()).toHaveLength(1);
    expect(JSON.stringify(rig.slack.messages.all())).not.toContain(password);
    expect(rig.logLines.join('\n')).not.toContain(password);
    expect(JSON.stringify(await rig.store.watches.listRecent(50))).not.toContain(password);
    const polls = rig.sandbox.requests.slice(pollsBefore).filter((r) => r.method === 'GET' && /\/servers\/104\/(status|credentials)$/.test(r.path)).length;
    process.stderr.write(`[watch] reinstall polls (status + credentials GETs): ${polls}\n`);
    expect(broadcasts(msg)).toHaveLength(1);
  });
});

describe('watches by hand', () => {
  it('a viewer watching a reinstall by hand (a read) is not sent the new root password; the final post still comes', async () => {
    const r = await rig.cloud.servers.reinstall('101', { template_slug: 'debian-12' }); // from the panel, say
    const from = rig.slack.calls.length;
    const w = await rig.command('server status 101 --watch', { userId: CAROL.id });
    expect(visibleText(w.final)).toMatch(/Watching in the channel as `w[a-z2-7]{8}`/);
    const own = await rig.postedSince(from);
    await watch.begun();
    await watch.tick();
    await watch.stepUntil(() => thread(own).some((m) => /reinstalled and its credentials are ready/.test(text(m))));
    // The watch's end decides about the password after its final post, in the same pass.
    expect(rig.logLines.some((l) => l.includes('its requester may not read'))).toBe(true);
    expect(JSON.stringify(rig.slack.messages.ephemeral(CAROL.id))).not.toContain(r.password!);
    expect(JSON.stringify(rig.slack.messages.all())).not.toContain(r.password!);
  });


  it('--watch follows a build in its own message; watch list shows it; watch cancel stops it', async () => {
    const worker = await rig.cloud.workers.deploy({ location_id: 1, name: 'by-hand', git_source: 'public', git_repository: 'https://github.com/acme/b.git' });
    const from = rig.slack.calls.length;
    const r = await rig.command(`worker status ${worker.uuid} --watch`);
    expect(visibleText(r.final)).toMatch(/Watching in the channel as `w[a-z2-7]{8}`/);
    const id = /`(w[a-z2-7]{8})`/.exec(visibleText(r.final))![1]!;
    const own = await rig.postedSince(from);
    await watch.tick(); // the first look
    expect(text(latest(own))).toContain(worker.uuid); // edited in place after the first poll
    const list = await rig.command('watch list');
    expect(visibleText(list.final)).toContain(id);
    const cancel = await rig.command(`watch cancel ${id}`);
    expect(visibleText(cancel.final)).toContain(`Stopped watch \`${id}\``);
    await waitFor(() => thread(own).some((m) => text(m).includes(`cancelled by <@${ALICE.id}>`)), { timeoutMs: 5000 });
    const again = await rig.command(`watch cancel ${id}`);
    expect(visibleText(again.final)).toContain('is not running');
    const bad = await rig.command('watch cancel ../w1');
    expect(visibleText(bad.final)).toMatch(/is not a watch id/);
  });

  it('--watch whose first look the cloud fails: the read is still shown, and the watch’s failure in the cloud’s words', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/servers/101/credentials', status: 503, code: 'SERVICE_UNAVAILABLE', message: 'Maintenance', times: 10 });
    try {
      const r = await rig.command('server status 101 --watch');
      const shown = visibleText(r.final);
      expect(shown).toContain('Server `101`'); // the status read's answer
      expect(shown).toContain('`/cloud server status --watch` failed');
      expect(shown).toContain('SERVICE_UNAVAILABLE');
      expect(shown).not.toMatch(/inside the bot/);
    } finally {
      rig.sandbox.clearFaults();
    }
  });

  it('--watch on something already finished starts nothing', async () => {
    const r = await rig.command('server status 101 --watch');
    expect(visibleText(r.final)).toContain('Nothing to watch');
  });
});
