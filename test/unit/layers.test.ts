/**
 * The stack the right way up (README "Architecture"): each folder of src/ may import at run
 * time only from folders on a lower layer, so rendering and the chat interface are leaves and
 * nothing below slack/ reaches up into it. Type-only imports vanish at run time and are free.
 * Also: outside src/views/ nothing mints mrkdwn or Block Kit by hand.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

/** Higher layers may import lower ones, never the reverse; one layer's folders may not import each other unless listed. */
const LAYER: Record<string, number> = {
  'main.ts': 8,
  // The shell builds its bot with the composition root, as main.ts does.
  shell: 7,
  'runtime.ts': 6,
  // The policy part of the composition root: under it, over access.
  'runtime-policy.ts': 5.5,
  'runtime-types.ts': 5.5,
  slack: 5,
  watch: 4,
  confirm: 4,
  monitor: 4,
  access: 3,
  audit: 3,
  operations: 2,
  views: 1,
  chat: 1,
  cloud: 0,
  store: 0,
  sandbox: 0,
  domain: -0.5,
  'config.ts': -1,
  'urls.ts': -2,
  'config-fields.ts': -2,
  'config-types.ts': -1,
  'clock.ts': -2,
  'turns.ts': -2,
  'log.ts': -2,
};
/** Same-layer imports that are allowed (a one-way street, so still no cycle). */
const SIDEWAYS = new Set(['watch->confirm', 'monitor->watch', 'audit->access', 'sandbox->cloud', 'chat->views']);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}
const unit = (file: string) => relative(SRC, file).split(sep)[0]!;

/** Value imports and re-exports (not `import type`, not `{ type A, type B }` only). */
export function runtimeImports(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/^(?:import|export)\s+(?!type\s)([^;]*?)\s+from\s+'(\.[^']+)'/gms)) {
    const clause = m[1]!.trim();
    const named = /^\{([^}]*)\}$/.exec(clause);
    if (named && named[1]!.split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type '))) continue;
    out.push(m[2]!);
  }
  for (const m of source.matchAll(/^import\s+'(\.[^']+)'/gm)) out.push(m[1]!);
  return out;
}

function edges(): { from: string; to: string; file: string }[] {
  const list: { from: string; to: string; file: string }[] = [];
  for (const file of files(SRC)) {
    for (const spec of runtimeImports(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), spec);
      const from = unit(file);
      const to = unit(target.replace(/\.js$/, '.ts'));
      if (from !== to) list.push({ from, to, file: relative(SRC, file) });
    }
  }
  return list;
}

describe('layers', () => {
  const all = edges();

  it('every folder of src/ has a layer', () => {
    const units = new Set(files(SRC).map(unit));
    expect([...units].filter((u) => LAYER[u] === undefined)).toEqual([]);
  });

  it('no run-time import goes up or sideways (so no folder cycle)', () => {
    const bad = all
      .filter(({ from, to }) => !(LAYER[from]! > LAYER[to]! || SIDEWAYS.has(`${from}->${to}`)))
      .map(({ from, to, file }) => `${file}: ${from} -> ${to}`);
    expect(bad).toEqual([]);
  });

  it('rendering and the chat interface are leaves: they import nothing of ours above the cloud/store floor at run time', () => {
    const bad = all.filter(({ from, to }) => (from === 'views' || from === 'chat') && !(to === 'views' || LAYER[to]! <= 0));
    expect(bad).toEqual([]);
  });

  it('the detector sees value imports and ignores type-only ones', () => {
    const src = [
      "import { a } from '../x/a.js';",
      "import type { B } from '../y/b.js';",
      "import { type C, type D } from '../z/c.js';",
      "import { type E, f } from '../w/e.js';",
      "export { g } from '../v/g.js';",
    ].join('\n');
    expect(runtimeImports(src)).toEqual(['../x/a.js', '../w/e.js', '../v/g.js']);
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
