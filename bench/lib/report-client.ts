/** bench/results.md's client-overhead parts: its target row and its section. */
import type { ClientOverheadResult } from '../client-overhead.js';
import { pass } from './bench-results.js';
import { fmt } from './stats.js';
import { table } from './store-comparison.js';

export const CLIENT_TARGET_RATIO = 1.3;

export const clientOk = (c: ClientOverheadResult) => c.ratio <= CLIENT_TARGET_RATIO && c.errors === 0;

export function clientTargetRow(c: ClientOverheadResult): string[] {
  return ['Client overhead, cloud client ÷ raw undici', `${fmt(c.ratio, 2)}× (${fmt(c.client.perRequestUs)} µs ÷ ${fmt(c.raw.perRequestUs)} µs per GET)`, `≤ ${CLIENT_TARGET_RATIO}×`, pass(clientOk(c))];
}

export function clientSection(c: ClientOverheadResult): string {
  return [
    '## Client overhead',
    '',
    `${c.requests.toLocaleString('en')} GET /account/usage each way, ${c.concurrency} in flight, ${c.batches} alternating batches after a warm-up of 1,000 each, against one local node:http server in its own process answering a fixed ${c.bodyBytes}-byte body.`,
    '',
    table(
      ['Path', 'total ms', 'µs per request (wall)', 'client-process CPU µs per request'],
      [
        ['cloud client (`createCloudClient`, `account.usage()`)', fmt(c.client.totalMs, 0), fmt(c.client.perRequestUs), fmt(c.client.cpuUs)],
        ['raw undici `request` + `JSON.parse`', fmt(c.raw.totalMs, 0), fmt(c.raw.perRequestUs), fmt(c.raw.cpuUs)],
        ['ratio', `${fmt(c.ratio, 2)}×`, '', `${fmt(c.cpuRatio, 2)}× (CPU)`],
      ],
    ),
    '',
    `Errors: ${c.errors}.`,
  ].join('\n');
}
