/**
 * The "Rolling restart" section of bench/results.md (bench/rolling-restart.ts's figures), and
 * writing one section into the file without touching the others: `npm run bench --
 * --only rolling-restart --record` replaces this section alone (or adds it before the method
 * notes), so the sections recorded by a full run stay as they were.
 */
import type { RollingRestartResult, RollingRun } from '../rolling-restart.js';
import type { PgRun } from './store-comparison.js';

export const ROLLING_HEADING = '## Rolling restart (two replicas on PostgreSQL)';

const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : '–');

/** Whether a run lost, doubled or failed nothing. */
export const cleanRun = (r: RollingRun) => r.failed + r.unanswered + r.mutationsDoubled + r.mutationsMissing + r.finalsDoubled + r.finalsLost === 0;

export function rollingSection(run: PgRun<RollingRestartResult>, when: Date): string {
  const head = [ROLLING_HEADING, ''];
  if (!run.ok) return [...head, `Not measured: ${run.why}.`].join('\n');
  const { runs, settings: s } = run.result;
  const verdict = runs.length > 0 && runs.every(cleanRun) ? 'PASS' : '**MISS**';
  const rows = runs.map((r, i) =>
    [
      String(i + 1),
      `${r.commands} / ${r.clicks}`,
      String(r.failed),
      String(r.unanswered),
      String(r.toldRetry),
      `${r.deploys}`,
      `${r.mutationsDoubled} / ${r.mutationsMissing}`,
      `${r.finalsDoubled} / ${r.finalsLost}`,
      `${ms(r.restartAcks.p50)} / ${ms(r.restartAcks.p99)} / ${ms(r.restartAcks.max)} (n ${r.restartAcks.n})`,
      r.takeoverMs.map(ms).join(', '),
      r.stopMs.map(ms).join(', '),
    ].join(' | '),
  );
  return [
    ...head,
    `Recorded ${when.toISOString()} by \`npm run bench -- --record\` or \`npm run bench -- --only rolling-restart --record\` (bench/rolling-restart.ts): ${runs.length} consecutive runs, each on a fresh database. ${verdict}: 0 failed, 0 unanswered, 0 doubled, 0 lost in every run.`,
    '',
    `Two bot processes (\`src/main.ts\`, HTTP mode) behind a load balancer that routes to replicas whose \`/readyz\` was 200 at its last probe (every ${s.readProbeMs} ms) and tries the other replica on a refused connection. Load: a read command every ${s.commandEveryMs} ms, a worker deploy (command, then a Confirm click) every ${s.deployEveryMs} ms, each deploy watched to its end (builds take ${s.buildMs / 1000} s; WATCH_INTERVAL_MS ${s.watchIntervalMs}, WATCH_LEASE_MS ${s.leaseMs}, SHUTDOWN_TIMEOUT_MS ${s.shutdownTimeoutMs}, SHUTDOWN_DELAY_MS ${s.shutdownDelayMs}: a stopping replica's port stays open that long, so SIGTERM → exit is at least that). Each replica in turn gets SIGTERM, exits, and is started again. Mutations are counted at the sandbox (POST /workers per deploy name), final posts at the fake Slack (per deploy thread). "Told to retry" are requests that reached a stopping replica and were answered "restarting, nothing was sent"; each was sent again once and counts as failed unless that succeeded. Ack latency is client-side through the load balancer, for requests sent from a SIGTERM until the replica was back. Takeover: SIGTERM → every watch the replica held leased by the other.`,
    '',
    '| run | commands / clicks | failed | unanswered | told to retry | deploys | mutations doubled / missing | final posts doubled / lost | ack p50 / p99 / max during restarts | takeover (a, b) | SIGTERM → exit (a, b) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`),
    ...runs.flatMap((r, i) => (r.why.length ? ['', `Run ${i + 1}: ${r.why.map((w) => `\`${w.replace(/`/g, "'")}\``).join('; ')}.`] : [])),
  ].join('\n');
}

/**
 * `existing` with the section starting at `section`'s first line replaced by `section` (up to the
 * next `## ` heading), or, when absent, inserted before "## Method and caveats" (else appended).
 */
export function mergeSection(existing: string | undefined, section: string): string {
  const heading = section.split('\n')[0]!;
  const text = existing ?? '# cloudbot benchmarks\n';
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  const body = section.trimEnd().split('\n');
  if (start >= 0) {
    let end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
    if (end < 0) end = lines.length;
    const after = lines.slice(end);
    return [...lines.slice(0, start), ...body, ...(after.length ? ['', ...after] : [''])].join('\n');
  }
  const method = lines.findIndex((l) => l.startsWith('## Method and caveats'));
  if (method < 0) return `${text.trimEnd()}\n\n${section.trimEnd()}\n`;
  return [...lines.slice(0, method), ...body, '', ...lines.slice(method)].join('\n');
}
