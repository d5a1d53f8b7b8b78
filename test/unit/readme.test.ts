import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalog } from '../../src/operations/index.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
const configSource = readFileSync(new URL('../../src/config.ts', import.meta.url), 'utf8');

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
});
