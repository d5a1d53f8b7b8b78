import { describe, expect, it } from 'vitest';
import { createDeliveryMemory, deliveryKey } from '../../src/slack/retried-deliveries.js';

describe('delivery memory', () => {
  it('knows a delivery again until its time is up', () => {
    let now = 1_000;
    const memory = createDeliveryMemory({ now: () => now }, 60_000, 100);
    expect(memory.seen('trigger:a')).toBe(false);
    expect(memory.seen('trigger:a')).toBe(true);
    now += 60_001;
    expect(memory.seen('trigger:b')).toBe(false); // a's time is up: forgotten as b comes in
    expect(memory.size()).toBe(1);
    expect(memory.seen('trigger:a')).toBe(false);
  });

  it('holds at most `max` keys, forgetting the oldest first', () => {
    const memory = createDeliveryMemory({ now: () => 0 }, 60_000, 3);
    for (const k of ['a', 'b', 'c', 'd', 'e']) memory.seen(k);
    expect(memory.size()).toBe(3);
    expect(memory.seen('e')).toBe(true);
    expect(memory.seen('a')).toBe(false);
  });

  it('keys a delivery by its event id, else its trigger id', () => {
    expect(deliveryKey({ event_id: 'Ev1', trigger_id: 't' })).toBe('event:Ev1');
    expect(deliveryKey({ trigger_id: '1.2.abc' })).toBe('trigger:1.2.abc');
    expect(deliveryKey({ type: 'block_suggestion' })).toBeUndefined();
    expect(deliveryKey(undefined)).toBeUndefined();
  });
});
