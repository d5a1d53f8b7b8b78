/**
 * The Dockerfile as steps a test can replay without a Docker engine (container-recipe.test.ts):
 * stages (FROM … AS name) with their instructions, continuation lines joined, comments dropped.
 * JSON (exec-form) arguments are parsed; nothing else of Docker's grammar is needed here.
 */

export interface Instruction {
  op: string;
  /** The instruction's text after its keyword, continuation lines joined. */
  args: string;
}

export interface Stage {
  image: string;
  name: string | undefined;
  steps: Instruction[];
}

export function parseDockerfile(text: string): Stage[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  const stages: Stage[] = [];
  for (const raw of joined.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!m) throw new Error(`Dockerfile: cannot read ${line}`);
    const op = m[1]!.toUpperCase();
    const args = m[2]!.trim();
    if (op === 'FROM') {
      const f = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!f) throw new Error(`Dockerfile: cannot read FROM ${args}`);
      stages.push({ image: f[1]!, name: f[2], steps: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile: ${op} before FROM`);
    stage.steps.push({ op, args });
  }
  return stages;
}

/** Exec form (`["node", "x.js"]`) as argv; shell form is refused (a shell in between would eat SIGTERM). */
export function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`not exec form: ${args}`);
  return parsed as string[];
}

/** `COPY [--from=stage] [--chown=…] src… dest` → its parts. */
export function copyArgs(args: string): { from: string | undefined; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  let from: string | undefined;
  const rest: string[] = [];
  for (const w of words) {
    if (w.startsWith('--from=')) from = w.slice('--from='.length);
    else if (!w.startsWith('--')) rest.push(w);
  }
  if (rest.length < 2) throw new Error(`COPY needs a source and a destination: ${args}`);
  return { from, sources: rest.slice(0, -1), dest: rest.at(-1)! };
}

/** `HEALTHCHECK [--opt=v …] CMD [...]` → its options and command. */
export function healthcheck(args: string): { options: Record<string, string>; command: string[] } {
  const at = args.indexOf('CMD ');
  if (at < 0) throw new Error(`HEALTHCHECK without CMD: ${args}`);
  const options = Object.fromEntries([...args.slice(0, at).matchAll(/--([a-z-]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
  return { options, command: execForm(args.slice(at + 4).trim()) };
}
