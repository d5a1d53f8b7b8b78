/**
 * Running one benchmark section in its own process (its own heap, event loop and RSS), so one
 * section's leftovers never colour another's figures. The child runs under the same tsx loader.
 */
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/** Forks `file` (a section module next to bench/run.ts) and resolves with what it sends. */
export function forkSection<T>(file: URL, timeoutMs: number, nodeFlags: string[] = []): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const execArgv = [...process.execArgv, ...nodeFlags.filter((f) => !process.execArgv.includes(f))];
    const child = fork(fileURLToPath(file), [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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
