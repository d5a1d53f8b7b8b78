/**
 * Requests received and not acked yet (pending-acks.ts): a Socket Mode stop leaves the socket
 * only once their acks went out, whether the listener acks, the start gate answers
 * "restarting", or the receiver acks a failed request; bounded by Slack's 3 s.
 */
import type { ReceiverEvent } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createPendingAcks } from '../../src/slack/pending-acks.js';

/** A received request whose ack (on the socket) is recorded. */
function request(sent: string[], name: string): ReceiverEvent {
  return { body: {}, ack: async () => void sent.push(name) } as ReceiverEvent;
}
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('pending acks', () => {
  it('waits for a request received but not acked yet, and resolves once its ack was sent', async () => {
    const acks = createPendingAcks();
    const sent: string[] = [];
    const event = request(sent, 'a');
    const processed = acks.track(event);
    let done = false;
    const waiting = acks.sent(5000).then(() => (done = true));
    await turn();
    expect(done).toBe(false);
    await event.ack(); // the listener's ack, on the object the receiver handed over
    await waiting;
    expect(sent).toEqual(['a']);
    processed(false);
    expect(acks.pending()).toBe(0);
  });

  it('a failed request the receiver acks after the failure is waited for; one never acked is let go a turn later', async () => {
    const acks = createPendingAcks();
    const sent: string[] = [];
    const acked = request(sent, 'acked');
    const leftForRedelivery = request(sent, 'never');
    acks.track(acked)(true);
    acks.track(leftForRedelivery)(true);
    expect(acks.pending()).toBe(2);
    await acked.ack(); // the receiver's error handler acks it
    await acks.sent(5000);
    expect(sent).toEqual(['acked']);
    expect(acks.pending()).toBe(0);
  });

  it('nothing pending: at once; a listener that never acks: not past the bound', async () => {
    const acks = createPendingAcks();
    await acks.sent(5000);
    acks.track(request([], 'stuck'));
    // Resolves at the bound although the ack never comes (were the bound ignored, the test would time out).
    await acks.sent(100);
    expect(acks.pending()).toBe(1);
  });
});
