/**
 * Running one benchmark section in its own process (its own heap, event loop and RSS), so one
 * section's leftovers never colour another's figures. The child runs under the same tsx loader,
 * unless it is compiled JavaScript run with plain node (`plainNode`).
 */
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A module next to the one at `metaUrl`, given by its name in the source tree (`./lib/x.ts`):
 * under tsx that file itself, in the compiled copy (bench/.compiled, run by plain node) its `.js`.
 */
export function sibling(file: string, metaUrl: string): URL {
  return new URL(metaUrl.endsWith('.js') ? file.replace(/\.ts$/, '.js') : file, metaUrl);
}

/** Whether the module at `metaUrl` is the process's entry script. */
export function isMain(metaUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && pathToFileURL(entry).href === metaUrl;
}

/**
 * Entry-point glue for a section module: runs `fn`, hands the result to the parent over IPC
 * (or prints it when started by hand), then exits.
 */
export function runAsSection<T>(metaUrl: string, fn: () => Promise<T>): void {
  if (!isMain(metaUrl)) return;
  fn().then(
    (result) => {
      if (process.send) process.send({ ok: true, result }, () => process.exit(0));
      else {
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        process.exit(0);
      }
    },
    (error: unknown) => {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      if (process.send) process.send({ ok: false, error: message }, () => process.exit(1));
      else {
        process.stderr.write(`${message}\n`);
        process.exit(1);
      }
    },
  );
}

export interface ForkOptions {
  /** Arguments for the section (process.argv[2…]). */
  args?: string[];
  /** Run with plain node: only `nodeFlags`, without this process's flags (tsx's loader); for compiled JavaScript. */
  plainNode?: boolean;
}

/** Forks `file` (a section module next to bench/run.ts) and resolves with what it sends. */
export function forkSection<T>(file: URL, timeoutMs: number, nodeFlags: string[] = [], options: ForkOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const inherited = options.plainNode ? [] : process.execArgv;
    const execArgv = [...inherited, ...nodeFlags.filter((f) => !inherited.includes(f))];
    const child = fork(fileURLToPath(file), options.args ?? [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      child.kill('SIGKILL');
      reject(new Error(`${file.pathname} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('message', (m: { ok: boolean; result?: T; error?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (m.ok) resolve(m.result as T);
      else reject(new Error(`${file.pathname} failed: ${m.error}`));
    });
    child.on('exit', (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new Error(`${file.pathname} exited with code ${code} before reporting`));
    });
  });
}
