/**
 * The stack the right way up (README "Architecture"): each folder of src/ imports only from
 * folders on a lower layer, type-only imports and `import('…')` type expressions included, so
 * there is no cycle between folders; and no cycle between files either (counted on its own,
 * with Tarjan's strongly connected components, so a cycle inside one folder is caught too).
 * Also: outside src/views/ nothing mints mrkdwn or Block Kit by hand.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

/** Higher layers may import lower ones, never the reverse; one layer's folders may not import each other unless listed. */
const LAYER: Record<string, number> = {
  'main.ts': 10,
  // The container's HEALTHCHECK: a program of its own over config.ts.
  'healthcheck.ts': 10,
  // The shell builds its bot with the composition root, as main.ts does.
  shell: 9,
  'runtime.ts': 8,
  // The policy part of the composition root, and the root's types (they name every service).
  'runtime-policy.ts': 7.5,
  // The telemetry part of the composition root: what it wraps and wires for metrics and traces.
  'runtime-telemetry.ts': 7.5,
  // The bound on a stop (SIGTERM): how long listener work may take to finish.
  'runtime-shutdown.ts': 7.5,
  'runtime-steps.ts': 7.5,
  // The root's services (watcher, maintenance, monitor, change flow, schedules), the core's deps, and /readyz.
  'runtime-services.ts': 7.5,
  'runtime-core.ts': 7.5,
  'runtime-readiness.ts': 7.5,
  // The change flow's upkeep sweep (expired confirmations, changes a stopped process left).
  'runtime-upkeep.ts': 7.5,
  'runtime-types.ts': 7,
  slack: 6,
  // The application core: runs a request from any surface (commands, forms, clicks); knows no Slack transport.
  app: 5.5,
  watch: 5,
  confirm: 5,
  monitor: 5,
  schedule: 5,
  access: 4,
  audit: 4,
  operations: 3,
  views: 2,
  chat: 2,
  cloud: 1,
  store: 1,
  // A separate program (the fake cloud): it shares the API's shapes with the client, nothing else.
  sandbox: 1,
  // Words every layer shares (tier, audit entry, access verdicts, the request a change sends).
  domain: 0,
  // The Cloud API v2's resource shapes: the client reads them, the sandbox answers in them.
  'cloud-api': 0,
  'config.ts': 0,
  // Metrics and traces: a leaf the services are handed through deps (wrappers are structural).
  telemetry: 0.5,
  'config-types.ts': -1,
  'config-telemetry.ts': -1.5,
  // The contract's other parts, each a zod schema beside config.ts (which alone reads the environment).
  'config-cloud.ts': -1.5,
  'config-slack.ts': -1.5,
  'config-access.ts': -1.5,
  'config-timing.ts': -1.5,
  'config-unfurl.ts': -1.5,
  'urls.ts': -2,
  'config-fields.ts': -2,
  'clock.ts': -2,
  'turns.ts': -2,
  'deadline.ts': -2,
  'regexp.ts': -2,
  'log.ts': -2,
};
/** Same-layer imports that are allowed (a one-way street, so still no cycle). */
const SIDEWAYS = new Set(['watch->confirm', 'monitor->watch', 'audit->access', 'chat->views']);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}
const unit = (file: string) => relative(SRC, file).split(sep)[0]!;

/**
 * Every relative module a source names: `import`/`export … from` (types too), bare `import '…'`,
 * and `import('…')` (a dynamic import or a type expression). Comments are dropped first.
 */
export function importedSpecs(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const out: string[] = [];
  for (const m of code.matchAll(/\b(?:import|export)\b[^;'"]*?\bfrom\s*['"](\.[^'"]+)['"]/g)) out.push(m[1]!);
  for (const m of code.matchAll(/\bimport\s*['"](\.[^'"]+)['"]/g)) out.push(m[1]!);
  for (const m of code.matchAll(/\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

function resolveSpec(file: string, spec: string): string {
  const base = resolve(dirname(file), spec).replace(/\.js$/, '');
  const hit = [`${base}.ts`, join(base, 'index.ts')].find((p) => existsSync(p));
  if (!hit) throw new Error(`${relative(SRC, file)}: cannot resolve ${spec}`);
  return hit;
}

/** file → the files it imports, every path relative to src/. */
function graph(): Map<string, Set<string>> {
  const g = new Map<string, Set<string>>();
  for (const file of files(SRC)) g.set(relative(SRC, file), new Set(importedSpecs(readFileSync(file, 'utf8')).map((s) => relative(SRC, resolveSpec(file, s)))));
  return g;
}

/** Tarjan's strongly connected components with more than one member (or a self-import): the cycles. */
export function cycles(g: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || g.get(v)?.has(v)) found.push(component.sort());
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return found;
}

function folderGraph(g: Map<string, Set<string>>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [from, tos] of g) {
    const set = out.get(unit(join(SRC, from))) ?? new Set<string>();
    for (const to of tos) if (unit(join(SRC, to)) !== unit(join(SRC, from))) set.add(unit(join(SRC, to)));
    out.set(unit(join(SRC, from)), set);
  }
  return out;
}

describe('layers', () => {
  const g = graph();
  const all = [...g].flatMap(([file, tos]) => [...tos].map((to) => ({ file, from: unit(join(SRC, file)), to: unit(join(SRC, to)) }))).filter(({ from, to }) => from !== to);

  it('every folder of src/ has a layer', () => {
    const units = new Set(files(SRC).map(unit));
    expect([...units].filter((u) => LAYER[u] === undefined)).toEqual([]);
  });

  it('no import goes up or sideways, type imports included (so no folder cycle)', () => {
    const bad = all.filter(({ from, to }) => !(LAYER[from]! > LAYER[to]! || SIDEWAYS.has(`${from}->${to}`))).map(({ from, to, file }) => `${file}: ${from} -> ${to}`);
    expect(bad).toEqual([]);
  });

  it('no cycle between files, nor between top-level folders', () => {
    expect(cycles(g)).toEqual([]);
    expect(cycles(folderGraph(g))).toEqual([]);
  });

  it('rendering and the chat interface are leaves: they import nothing of ours above the cloud/store floor', () => {
    const bad = all.filter(({ from, to }) => (from === 'views' || from === 'chat') && !(to === 'views' || LAYER[to]! <= 1));
    expect(bad).toEqual([]);
  });

  it('the shell is a surface beside Slack, not on top of it: nothing under src/shell/ imports src/slack/ (issue 22)', () => {
    const bad = all.filter(({ from, to }) => from === 'shell' && to === 'slack').map(({ file, to }) => `${file} -> ${to}`);
    expect(bad).toEqual([]);
  });

  it('the sandbox shares only the API shapes with the bot: nothing of cloud/, store/ or above', () => {
    const bad = all.filter(({ from, to }) => from === 'sandbox' && LAYER[to]! > 0 && to !== 'config.ts').map(({ file, to }) => `${file} -> ${to}`);
    expect(bad).toEqual([]);
  });

  it('the detector sees every import, type-only ones and type expressions too', () => {
    const src = [
      "import { a } from '../x/a.js';",
      "import type { B } from '../y/b.js';",
      "import { type C, type D } from '../z/c.js';",
      'import {',
      '  e,',
      "} from '../w/e.js';",
      "export { g } from '../v/g.js';",
      "export type { H } from './h.js';",
      "import './side.js';",
      "type I = import('./i.js').I;",
      "// import { j } from './commented.js';",
      "import { k } from 'zod';",
    ].join('\n');
    expect(importedSpecs(src)).toEqual(['../x/a.js', '../y/b.js', '../z/c.js', '../w/e.js', '../v/g.js', './h.js', './side.js', './i.js']);
  });

  it('the cycle finder finds a loop, and nothing in a tree', () => {
    const loop = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])], ['d', new Set(['a'])]]);
    expect(cycles(loop)).toEqual([['a', 'b', 'c']]);
    expect(cycles(new Map([['a', new Set(['b', 'c'])], ['b', new Set(['c'])], ['c', new Set<string>()]]))).toEqual([]);
  });
});

describe('chat output is made only in src/views/', () => {
  const outside = files(SRC).filter((f) => !relative(SRC, f).startsWith(`views${sep}`));

  it('no hand-written Block Kit or mrkdwn outside the rendering layer', () => {
    const bad: string[] = [];
    for (const f of outside) {
      const text = readFileSync(f, 'utf8');
      const sandbox = relative(SRC, f).startsWith(`sandbox${sep}`); // the fake cloud has no Slack output
      if (sandbox) continue;
      if (/type:\s*'(section|context|header|actions|mrkdwn|divider)'/.test(text)) bad.push(`${relative(SRC, f)}: Block Kit literal`);
      if (/\btrusted\(|as Mrkdwn\b/.test(text)) bad.push(`${relative(SRC, f)}: mints Mrkdwn`);
    }
    expect(bad).toEqual([]);
  });
});

describe('rendering is a view of records (issue 22)', () => {
  it('no view, status message or watch parent message reaches the cloud client, the recorder or the secrets module at run time', () => {
    /** The modules that describe or send requests: a renderer that can reach one can drive the cloud. */
    const FORBIDDEN = ['cloud/client.ts', 'cloud/cloud-client.ts', 'cloud/index.ts', 'cloud/http.ts', 'cloud/recorder.ts', 'access/secrets.ts', 'operations/change-request.ts'];
    const RENDERERS = [...files(join(SRC, 'views')), join(SRC, 'confirm/status-message.ts'), join(SRC, 'watch/parent-message.ts')];
    /** Value imports only (type-only ones vanish at run time), as files. */
    const importsOf = (file: string): string[] =>
      [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(?!type\s)([^;]*?)\s+from\s+'(\.[^']+)'/gms)]
        .filter((m) => !/^\{([^}]*)\}$/.test(m[1]!.trim()) || !m[1]!.trim().slice(1, -1).split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type ')))
        .map((m) => resolve(dirname(file), m[2]!).replace(/\.js$/, '.ts'));
    const bad: string[] = [];
    for (const start of RENDERERS) {
      const seen = new Set<string>([start]);
      const queue = [start];
      while (queue.length) {
        const f = queue.shift()!;
        for (const next of importsOf(f)) {
          if (seen.has(next)) continue;
          seen.add(next);
          const rel = relative(SRC, next).split(sep).join('/');
          if (FORBIDDEN.includes(rel)) bad.push(`${relative(SRC, start)} reaches ${rel} (via ${relative(SRC, f)})`);
          else queue.push(next);
        }
      }
    }
    const parent = readFileSync(join(SRC, 'watch/parent-message.ts'), 'utf8');
    if (/from '\.\.\/confirm\//.test(parent)) bad.push('watch/parent-message.ts imports confirm/');
    expect(bad).toEqual([]);
  });
});
