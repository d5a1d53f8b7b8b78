/** Shared set-up for sandbox tests: a seeded sandbox on loopback driven by a manual clock. */
import { expect } from 'vitest';
import type { z } from 'zod';
import { createManualClock } from '../../src/clock.js';
import type { ManualClock } from '../../src/clock.js';
import { createSandbox } from '../../src/sandbox/index.js';
import type { ListeningSandbox, Sandbox, SandboxOptions } from '../../src/sandbox/index.js';

export const TOKEN = 'test-token-0123456789abcdef';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // Tests read arbitrary JSON; `any` keeps assertions short.
  json: any;
}

export interface Harness {
  sandbox: Sandbox;
  clock: ManualClock;
  server: ListeningSandbox;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** Sends `body` verbatim (for malformed JSON). */
  raw(method: string, path: string, body: string): Promise<Answer>;
  close(): Promise<void>;
}

export async function start(opts: SandboxOptions = {}): Promise<Harness> {
  const clock = createManualClock();
  const sandbox = createSandbox({ token: TOKEN, clock, ...opts });
  const server = await sandbox.listen();
  const send = async (method: string, path: string, body: string | undefined, headers: Record<string, string>) => {
    const r = await fetch(server.baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body }),
    });
    const text = await r.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: r.status, headers: r.headers, text, json };
  };
  return {
    sandbox,
    clock,
    server,
    call: (method, path, body, headers = {}) => send(method, path, body === undefined ? undefined : JSON.stringify(body), headers),
    raw: (method, path, body) => send(method, path, body, {}),
    close: () => server.close(),
  };
}

/**
 * Parses with the client's schema and checks the object has exactly the schema's keys, less
 * those the client reads beyond the spec (`beyondSpec`: a real provider may send them; the
 * sandbox answers as the spec shows).
 */
export function expectShape<S extends z.ZodObject>(schema: S, value: unknown, beyondSpec: readonly string[] = []): z.infer<S> {
  const parsed = schema.parse(value);
  const specKeys = Object.keys(schema.shape).filter((k) => !beyondSpec.includes(k));
  expect(Object.keys(value as object).sort()).toEqual(specKeys.sort());
  return parsed;
}

/** Asserts an error envelope with this status and code; returns the `error` member. */
export function expectError(a: Answer, status: number, code: string): any {
  expect({ status: a.status, code: a.json?.error?.code }).toEqual({ status, code });
  expect(typeof a.json.error.message).toBe('string');
  return a.json.error;
}
