/**
 * `npm run sandbox` as a real process: on a port already in use it names the port and the
 * variable that changes it, in one line and without a stack trace, and exits 1.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';

const MAIN = new URL('../../src/sandbox/main.ts', import.meta.url).pathname;

describe('npm run sandbox', () => {
  it('on a busy port names the port and SANDBOX_PORT, with no stack, and exits 1', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
        env: { PATH: process.env.PATH ?? '', SANDBOX_PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += String(d)));
      child.stderr.on('data', (d) => (out += String(d)));
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      expect(code).toBe(1);
      expect(out).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(out).toContain('SANDBOX_PORT');
      expect(out).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
