import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalog } from '../../src/operations/index.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
// config.ts reads the environment; the parts of its schema (config-*.ts) live beside it.
const configSource = readdirSync(new URL('../../src/', import.meta.url))
  .filter((f) => /^config(-[a-z-]+)?\.ts$/.test(f))
  .map((f) => readFileSync(new URL(`../../src/${f}`, import.meta.url), 'utf8'))
  .join('\n');

describe('README stays true', () => {
  it('says that npm install may need a C/C++ toolchain for better-sqlite3 (issue 14)', () => {
    const install = readme.slice(0, readme.indexOf('npm start'));
    expect(readme.slice(0, 3000)).toMatch(/better-sqlite3[^\n]*(\n[^\n]+)*C\/C\+\+ (compiler|toolchain)/);
    expect(install).toContain('npm install');
  });

  it('documents every command of the catalog with its usage', () => {
    for (const op of catalog.operations) expect(readme, op.id).toContain(`\`${catalog.usage(op)}\``);
  });

  it('documents every environment variable config.ts reads, and .env.example lists it', () => {
    const names = new Set([...configSource.matchAll(/\b([A-Z][A-Z0-9]*_[A-Z0-9_]+|PORT)\b(?=[?:]|: optional|:\s*z|:\s*port)/g)].map((m) => m[1]!));
    expect(names.size).toBeGreaterThan(8);
    for (const name of names) {
      expect(readme, name).toContain(`\`${name}\``);
      expect(example, name).toMatch(new RegExp(`^${name}=`, 'm'));
    }
  });

  it('every "README › Section" a message or script points to is a heading of README', () => {
    const headings = new Set([...readme.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]!.trim()));
    const root = new URL('../../', import.meta.url);
    const files = [
      ...readdirSync(new URL('scripts/', root)).map((f) => `scripts/${f}`),
      ...readdirSync(new URL('src/', root), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => `src/${f}`),
      '.env.example',
    ];
    const pointers: string[] = [];
    for (const f of files) {
      for (const m of readFileSync(new URL(f, root), 'utf8').matchAll(/README › ([A-Z][\w-]*(?: [\w-]+)*)/g)) pointers.push(`${f}: ${m[1]}`);
    }
    expect(pointers.length).toBeGreaterThan(1);
    expect(pointers.filter((p) => !headings.has(p.slice(p.indexOf(': ') + 2)))).toEqual([]);
  });

  it('.env.example says what the watcher does: polls keep the interval, only errors back off (src/watch/watcher.ts)', () => {
    const watcher = readFileSync(new URL('../../src/watch/watcher.ts', import.meta.url), 'utf8');
    // The code: nothing changed → the next poll is one base interval away; errors back off.
    expect(watcher).toMatch(/Nothing changed: look again in one base interval/);
    const comment = example.slice(example.indexOf('# ── Watches'), example.indexOf('WATCH_INTERVAL_MS='));
    expect(comment).not.toMatch(/back off while nothing changes/);
    expect(comment).toMatch(/only errors back off/);
    expect(readme).toMatch(/errors back off \(×1\.5, up to six times the interval\)/);
  });
});
