/** bench/results.md's "Machine" table: where and on which commit the figures were taken. */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { PgServer } from './pg-database.js';
import { fmt } from './stats.js';
import { table } from './store-comparison.js';

const gb = (bytes: number) => bytes / 1024 ** 3;

/** `git …` in `cwd`; undefined when git is missing or fails. */
export function git(cwd: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** The short commit, with a note when src/ has uncommitted changes. */
export function commitLabel(repoDir: string): string {
  const commit = git(repoDir, ['rev-parse', '--short', 'HEAD']);
  const dirty = git(repoDir, ['status', '--porcelain', '--', 'src']);
  return `${commit ?? 'unknown'}${dirty ? ' + uncommitted changes in src/' : ''}`;
}

export interface MachineInfo {
  date: Date;
  loadStart: number[];
  loadEnd: number[];
  pgServer: PgServer | undefined;
  pgDown: string | undefined;
  commit: string;
  totalS: number;
}

export function machineTable(m: MachineInfo): string {
  const cpus = os.cpus();
  const load = (l: number[]) => l.map((x) => fmt(x, 2)).join(' / ');
  return table(
    ['', ''],
    [
      ['Date', m.date.toISOString()],
      ['CPU', `${cpus[0]?.model ?? 'unknown'} × ${cpus.length}`],
      ['Memory', `${fmt(gb(os.totalmem()), 1)} GB total, ${fmt(gb(os.freemem()), 1)} GB free at the end`],
      [
        'Node',
        `${process.version} (${os.platform()} ${os.release()}, ${os.arch()}); ack latency and client overhead run through tsx, watch scale, alert scale and start to ready as compiled JavaScript under plain node (as \`npm start\` runs the bot)`,
      ],
      ['Load average (1/5/15 min)', `start ${load(m.loadStart)}, end ${load(m.loadEnd)}`],
      ['PostgreSQL', m.pgServer ? `${m.pgServer.description}, server ${m.pgServer.version} (a fresh database per section, dropped after it)` : (m.pgDown ?? 'not reached')],
      ['Commit', m.commit],
      ['Total wall time of `npm run bench`', `${fmt(m.totalS)} s`],
    ],
  );
}
