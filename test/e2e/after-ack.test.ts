/**
 * Work after the ack runs detached from Bolt (src/slack/after-ack.ts, issue 15): the request is
 * acked and let go while the answer is still on its way; the runtime knows the answer is under
 * way (the shell waits for it), and stopping finishes it before the store closes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startBotRig, type BotRig } from './bot-rig.js';

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
