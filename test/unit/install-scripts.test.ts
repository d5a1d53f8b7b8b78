/**
 * `npm install` (npm 11.16+) warns about dependencies whose install scripts `allowScripts` does
 * not cover, and npm 12 skips them. Every one in the lockfile is declared in package.json.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (f: string) => JSON.parse(readFileSync(new URL(`../../${f}`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('install scripts', () => {
  it('package.json allowScripts covers every dependency with an install script (better-sqlite3, esbuild)', () => {
    const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = new Set(
      Object.entries(lock.packages)
        .filter(([path, p]) => path && p.hasInstallScript)
        .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
    );
    expect([...withScripts].sort()).toEqual(['better-sqlite3', 'esbuild']);
    const allowed = (read('package.json').allowScripts ?? {}) as Record<string, boolean>;
    // Name-only entries: the lockfile records no `resolved` URL, so npm cannot pin a version.
    for (const name of withScripts) expect(allowed[name], name).toBe(true);
  });
});
