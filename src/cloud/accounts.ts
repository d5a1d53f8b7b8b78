/**
 * One cloud client per named account (issue 12): each bound to its own base URL and token, so
 * a request for account A can only ever carry A's token to A's URL. The commands' client and
 * the watcher's (its own User-Agent) share one connection pool. A policy reload replaces the
 * targets: unchanged accounts keep their clients; changed or new ones get new clients.
 */
import type { Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import { createCloudClient, type ClosableCloudClient } from './client.js';
import type { CloudClient } from './cloud-client.js';
import type { RetryOptions } from './retry.js';
import type { AttemptObserver } from './http.js';

export interface AccountTarget {
  name: string;
  baseUrl: string;
  token: string;
}

/** What a flow needs to act on a record's account and to name it in messages. */
export interface AccountDeps {
  /** The client of a record's account (null: a record from before accounts, the default one). */
  cloudFor: (account: string | null) => CloudClient;
  /** The account's name where messages should show it (several accounts declared), else undefined. */
  accountLabel?: (account: string | null) => string | undefined;
}

export class UnknownAccountError extends Error {
  override readonly name = 'UnknownAccountError';
  constructor(readonly account: string) {
    super(`no cloud account named ${account} is configured`);
  }
}

export interface CloudAccounts {
  /** The commands' client for an account; throws UnknownAccountError if none is configured. */
  client(account: string): CloudClient;
  /** The watcher's client for an account (same pool, its own User-Agent). */
  watchClient(account: string): CloudClient;
  has(account: string): boolean;
  names(): string[];
  /** New targets after a policy reload. */
  update(targets: AccountTarget[]): void;
  /** Closes every client made (injected pools stay open). */
  close(): Promise<void>;
}

export interface CloudAccountsOptions {
  targets: AccountTarget[];
  clock: Clock;
  dispatcher: Dispatcher;
  retry?: RetryOptions;
  watchUserAgent: string;
  /** Metrics and traces of every try (http.ts). */
  observe?: AttemptObserver;
}

export function createCloudAccounts(options: CloudAccountsOptions): CloudAccounts {
  const made: ClosableCloudClient[] = [];
  type Pair = { target: AccountTarget; cloud: ClosableCloudClient; watch: ClosableCloudClient };
  let byName = new Map<string, Pair>();

  const make = (target: AccountTarget): Pair => {
    const base = {
      baseUrl: target.baseUrl,
      token: target.token,
      clock: options.clock,
      dispatcher: options.dispatcher,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.observe ? { observe: options.observe } : {}),
    };
    const pair = { target, cloud: createCloudClient(base), watch: createCloudClient({ ...base, userAgent: options.watchUserAgent }) };
    made.push(pair.cloud, pair.watch);
    return pair;
  };
  const same = (a: AccountTarget, b: AccountTarget) => a.baseUrl === b.baseUrl && a.token === b.token;

  function update(targets: AccountTarget[]): void {
    const next = new Map<string, Pair>();
    for (const t of targets) {
      const old = byName.get(t.name);
      next.set(t.name, old && same(old.target, t) ? old : make(t));
    }
    // Old clients stay open until `close`: a request in flight on them finishes.
    byName = next;
  }
  update(options.targets);

  const pair = (account: string): Pair => {
    const p = byName.get(account);
    if (!p) throw new UnknownAccountError(account);
    return p;
  };
  return {
    client: (account) => pair(account).cloud,
    watchClient: (account) => pair(account).watch,
    has: (account) => byName.has(account),
    names: () => [...byName.keys()],
    update,
    async close() {
      await Promise.all(made.map((c) => c.close()));
    },
  };
}
