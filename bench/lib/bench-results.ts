/**
 * What one `npm run bench` measured, as bench/run.ts hands it to the report modules
 * (bench/lib/report-*.ts), and the PASS/MISS words they share.
 */
import type { AckLatencyResult } from '../ack-latency.js';
import type { AlertScaleResult } from '../alert-scale.js';
import type { ClientOverheadResult } from '../client-overhead.js';
import type { StartReadyResult } from '../start-ready.js';
import type { WatchScaleResult } from '../watch-scale.js';
import type { PgServer } from './pg-database.js';
import type { PgRun } from './store-comparison.js';

export interface BenchResults {
  /** Ack latency, the reference layout (load generator in its own process), SQLite, with the I/O floor. */
  ack: AckLatencyResult;
  /** The same on PostgreSQL. */
  ackPg: PgRun<AckLatencyResult>;
  /** The watch-scale run the watch targets are judged on: `watchCompiled`, or under tsx when compilation failed. */
  watch: WatchScaleResult;
  watchPg: PgRun<WatchScaleResult>;
  /** Compilation of src and bench for the plain-node re-runs. */
  compiled: { ok: true; ms: number } | { ok: false; error: string };
  /** Watch scale as compiled JavaScript under plain node with `npm start`'s flags (undefined: compile failed). */
  watchCompiled: WatchScaleResult | undefined;
  /** The same on PostgreSQL (not ok also when compilation failed). */
  watchCompiledPg: PgRun<WatchScaleResult>;
  /** Alert scale (1,000 subscriptions + 1,000 watches), compiled, `npm start`'s flags, SQLite: the alert targets' run (undefined: compile or section failed). */
  alertsCompiled: AlertScaleResult | undefined;
  /** The same on PostgreSQL. */
  alertsCompiledPg: PgRun<AlertScaleResult>;
  startReady: StartReadyResult | undefined;
  startReadyPg: PgRun<StartReadyResult>;
  client: ClientOverheadResult;
  /** RSS of an empty program under tsx and under plain node (MB). */
  idle: { tsxMb: number; nodeMb: number };
  pgServer: PgServer | undefined;
  /** Why PostgreSQL was not reached, if it was not. */
  pgDown: string | undefined;
  totalS: number;
}

export const pass = (ok: boolean) => (ok ? 'PASS' : '**MISS**');
/** undefined: the PostgreSQL run has no figures. */
export const pgPass = (ok: boolean | undefined) => (ok === undefined ? '**NOT MEASURED**' : pass(ok));
