/**
 * Work after the ack runs detached from Bolt (src/slack/after-ack.ts, issue 15): the request is
 * acked and let go while the answer is still on its way; the runtime knows the answer is under
 * way (the shell waits for it), and stopping finishes it before the store closes. Work in
 * flight is bounded (issue 21): commands beyond the bound are answered "busy" and never
 * started; clicks wait their turn.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { blockActionsPayload } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

let rig: BotRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('work after the ack', () => {
  it('is acked before the cloud answers, and settled only once the answer was posted', async () => {
    rig = await startBotRig();
    rig.sandbox.setLatency(300);
    const responseUrl = rig.responses.next();
    const ack = await rig.sendCommand('server status 101', { responseUrl });
    expect(ack.status).toBe(200);
    // Acked, and nothing answered yet: the answer waits on the cloud.
    expect(rig.responses.postsTo(responseUrl)).toEqual([]);
    let settled = false;
    const waiting = rig.bot.settled().then(() => (settled = true));
    expect(settled).toBe(false);
    await waiting;
    const posts = rig.responses.postsTo(responseUrl);
    expect(posts).toHaveLength(1);
    expect(JSON.stringify(posts[0]!.body)).toContain('101');
    expect(rig.sandbox.requests.filter((q) => q.path === '/servers/101/status')).toHaveLength(1);
  });

  it('finishes an answer under way when the bot stops, before the store closes', async () => {
    rig = await startBotRig();
    rig.sandbox.setLatency(300);
    const responseUrl = rig.responses.next();
    await rig.sendCommand('server status 101', { responseUrl });
    await rig.bot.stop();
    expect(rig.responses.postsTo(responseUrl)).toHaveLength(1);
    // The audit entry of the answered read was written before the store closed.
    expect(rig.logLines.filter((l) => /audit store (refused|write failed)|store is closed/i.test(l))).toEqual([]);
  });
});

describe('load shedding', () => {
  it('beyond the bound, commands are acked and answered busy without reaching the cloud; the rest and clicks are answered once it answers', async () => {
    // The cloud's answers are held (its latency, waited out by the test) until released.
    let holding = false;
    const held: (() => void)[] = [];
    const wait = () => (holding ? new Promise<void>((release) => held.push(release)) : Promise.resolve());
    // Two at once, two waiting; the heap never counts here, so only the bound decides.
    rig = await startBotRig({ sandbox: { wait }, afterAck: { running: 2, waiting: 2, heapUsed: () => 0 }, monitor: { monitorLoop: false } });
    rig.sandbox.setLatency(1);
    const release = () => {
      holding = false;
      for (const r of held.splice(0)) r();
    };
    try {
      const list = await rig.command('backup list 101'); // a page button to click later, answered before holding
      holding = true;
      const asked = (server: number) => rig!.sandbox.requests.filter((q) => q.path === `/servers/${server}/status`).length;
      const busy = (url: string) => rig!.responses.postsTo(url).some((p) => /I am busy/.test(visibleText(p.body)));

      const servers = [101, 102, 103, 104, 105, 106];
      const urls: string[] = [];
      for (const server of servers) {
        const responseUrl = rig.responses.next();
        urls.push(responseUrl);
        expect((await rig.sendCommand(`server status ${server}`, { responseUrl })).status).toBe(200);
      }
      // The first two run (their requests reach the cloud and wait there), two wait for a place, the rest are shed.
      await waitFor(() => (asked(101) === 1 && asked(102) === 1 ? true : undefined), { timeoutMs: 5000 });
      await waitFor(() => (busy(urls[4]!) && busy(urls[5]!) ? true : undefined), { timeoutMs: 5000 });
      expect([103, 104, 105, 106].map(asked)).toEqual([0, 0, 0, 0]);
      expect(urls.slice(0, 4).some(busy)).toBe(false);

      // A click while the queue is full is never shed: it waits its turn.
      const clickUrl = rig.responses.next();
      const payload = blockActionsPayload({
        actionId: 'cloud_page_next',
        ephemeral: { channel: OPS_CHANNEL.id, message_ts: '1700000000.000100', blocks: list.posts.at(-1)!.body.blocks as unknown[] },
        userId: ALICE.id,
        channelId: OPS_CHANNEL.id,
        responseUrl: clickUrl,
      });
      expect((await rig.send.interaction(payload)).status).toBe(200);

      release();
      const answered = (url: string) => rig!.responses.postsTo(url).find((p) => !/slow to answer/.test(visibleText(p.body)));
      for (const [i, url] of urls.slice(0, 4).entries()) {
        const final = await waitFor(() => answered(url), { timeoutMs: 10_000 });
        expect(visibleText(final.body)).toContain(`Server \`${servers[i]}\`:`);
        expect(busy(url)).toBe(false);
      }
      const page = await waitFor(() => answered(clickUrl), { timeoutMs: 10_000 });
      expect(visibleText(page.body)).toContain('Page 2 of 2');
      await rig.bot.settled();
      // Each admitted command asked the cloud once; the shed ones never did, and were told so once.
      expect(servers.map(asked)).toEqual([1, 1, 1, 1, 0, 0]);
      expect(urls.slice(4).map((url) => rig!.responses.postsTo(url).length)).toEqual([1, 1]);
    } finally {
      release(); // a failed assertion must not leave the bot's requests held
    }
  });
});
