/**
 * No request can kill or stall the bot (issue 21, item 1): an alias saved before its bounds
 * existed (490 × `$1`) and 80 concurrent runs of it with a 3,900-character argument by someone
 * with no role. The person's right to act here is checked before anything is expanded, an
 * expansion never grows past a command's own limit, and the bot keeps answering everyone else.
 * Memory is measured in this process (the rig runs the bot here): a bound, not a timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, CAROL, OPS_CHANNEL } from '../rig/workspace.js';

let rig: BotRig;
beforeAll(async () => {
  // CLOUD_VIEWERS names Alice only: Carol, on no list, has no role at all.
  rig = await startBotRig({ access: { viewers: [ALICE.id] } });
});
afterAll(async () => {
  await rig?.close();
});

const HUGE = `server rename 101 ${'$1'.repeat(490)}`;
const FLOOD = 80;

describe('the alias flood', () => {
  it('refuses to save an alias whose expansion could outgrow a command, and saves nothing', async () => {
    const r = await rig.command(`alias huge = ${HUGE}`, { userId: BOB.id });
    expect(visibleText(r.final)).toMatch(/placeholders/);
    expect(await rig.store.aliases.get(OPS_CHANNEL.id, 'huge')).toBeUndefined();
  });

  it('80 runs by someone with no role: refused unexpanded, memory bounded, others still answered', async () => {
    // Saved before the bound existed (straight into the store, as an older version would have).
    await rig.store.aliases.add({ channelId: OPS_CHANNEL.id, name: 'huge', command: HUGE, createdBy: BOB.id, teamId: null, createdAt: Date.now() });
    const arg = 'x'.repeat(3900);
    const before = rig.sandbox.requests.length;
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);

    const urls = Array.from({ length: FLOOD }, () => rig.responses.next());
    const acks = urls.map((responseUrl) => rig.sendCommand(`huge ${arg}`, { userId: CAROL.id, responseUrl }));
    // Someone else's read, sent while the flood is under way, is acked and answered.
    const other = await rig.command('server status 101');
    expect(other.ack.status).toBe(200);
    expect(visibleText(other.final)).toMatch(/Server 101[\s\S]*running/);

    expect((await Promise.all(acks)).map((a) => a.status)).toEqual(urls.map(() => 200));
    const answers = await waitFor(() => (urls.every((u) => rig.responses.postsTo(u).length > 0) ? urls.map((u) => rig.responses.postsTo(u)) : undefined), {
      timeoutMs: 60_000,
    });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().heapUsed);

    for (const posts of answers) {
      expect(posts).toHaveLength(1);
      expect(visibleText(posts[0]!.body)).toMatch(/You have no role here/);
    }
    // Nothing reached the cloud for the flood: only the other person's read did.
    expect(rig.sandbox.requests.slice(before).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /servers/101/status']);
    // 80 expansions of 1.9 MB each would be ~150 MB of strings alone; refused unexpanded, the
    // flood costs next to nothing.
    expect(peak - baseline).toBeLessThan(48 * 1024 * 1024);

    // Still up, and still answering.
    const after = await rig.command('server status 101');
    expect(visibleText(after.final)).toMatch(/Server 101/);
  }, 120_000);

  it('someone with a role who runs it is told the expansion is too long, and nothing is sent', async () => {
    const before = rig.sandbox.requests.length;
    const r = await rig.command(`huge ${'x'.repeat(100)}`, { userId: BOB.id });
    expect(visibleText(r.final)).toMatch(/longer than .*4,?000 characters/);
    expect(rig.sandbox.requests.length).toBe(before);
  });

  it('a command line longer than Slack allows is refused with a clear message', async () => {
    const r = await rig.command(`server status ${'1'.repeat(4100)}`);
    expect(visibleText(r.final)).toMatch(/at most 4,?000 characters/);
    expect(r.cloudRequests).toEqual([]);
  });
});
