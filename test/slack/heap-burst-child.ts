/**
 * Run by heap-headroom.test.ts under `npm start`'s node flags: holds on to 1 MB more of heap per
 * step (as a burst of work still under way would) and offers a slash command to the real
 * after-ack queue at each step, with its default limits and V8's own heap figures. Once the
 * first command is shed, it holds `room` MB more (argv[2]: what the work already admitted may
 * still take) and prints the heap in use when it shed; or it dies as V8 kills a process past
 * its limit.
 */
import { getHeapStatistics } from 'node:v8';
import { createAfterAck } from '../../src/slack/after-ack.js';

const MB = 1024 * 1024;
const room = Number(process.argv[2] ?? 0);
const kept: number[][] = [];
const after = createAfterAck({ error: () => undefined, warn: () => undefined });

for (let step = 0; step < 4096; step++) {
  kept.push(new Array<number>(MB / 8).fill(step + 0.5)); // doubles: 1 MB on the heap each
  let shed = false;
  after.run('burst', async () => undefined, async () => void (shed = true));
  await after.idle();
  if (shed) {
    const h = getHeapStatistics();
    for (let i = 0; i < room; i++) kept.push(new Array<number>(MB / 8).fill(i + 0.25));
    process.stdout.write(`${JSON.stringify({ shedAtMb: h.used_heap_size / MB, limitMb: h.heap_size_limit / MB, keptMb: kept.length })}\n`);
    process.exit(0);
  }
}
process.stdout.write(`${JSON.stringify({ shedAtMb: null, keptMb: kept.length })}\n`);
