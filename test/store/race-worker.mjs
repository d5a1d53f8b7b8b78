// A second thread with its own connection (as a second process or replica would have),
// racing the test for the same records. Plain JS: tsx loads the TypeScript store.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { createStore } = await import(new URL('../../src/store/index.ts', import.meta.url).href);

const { target, schema, ids, offset, name, now, barrier } = workerData;
const store = createStore(target, schema ? { schema, max: 1 } : {});
// PostgreSQL: connect and find the schema migrated before the race starts.
await store.operations.get('op_aaaaaaaaaaaaaaaa');
const flags = new Int32Array(barrier); // [0] = go
parentPort.postMessage({ type: 'ready' });
Atomics.wait(flags, 0, 0); // Blocks this thread until the test says go; no timers.

const wins = [];
const reasons = {};
// Each thread starts at its own offset, so they collide all along the list.
for (let i = 0; i < ids.length; i++) {
  const id = ids[(offset + i) % ids.length];
  const r = await store.operations.transition(id, {
    from: ['pending'],
    to: 'confirmed',
    now,
    requireUnexpired: true,
    patch: { confirmedBy: name, confirmedAt: now },
  });
  if (r.ok) wins.push(id);
  else reasons[r.reason] = (reasons[r.reason] ?? 0) + 1;
}
await store.close();
parentPort.postMessage({ type: 'done', wins, reasons });
