/**
 * The policy file's `base_url: sandbox` accounts, for the local shell: each gets a built-in
 * sandbox of its own on loopback, so the shell can show which channel reaches which account.
 * The runtime is given the file with those base URLs replaced, and a token lookup that
 * answers each sandbox account with its sandbox's token (real accounts: their variable).
 */
import type { PolicyFile } from '../access/policy-file.js';
import { SANDBOX_WORD } from '../config.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../sandbox/index.js';

export interface SandboxAccount {
  name: string;
  sandbox: Sandbox;
  baseUrl: string;
}

export interface SandboxAccounts {
  /** The file as the runtime reads it: no `sandbox` left in it. */
  file: PolicyFile;
  /** One per `sandbox` account, in the file’s order. */
  sandboxes: SandboxAccount[];
  /** A token by variable name: a sandbox account's own, else `fallback` (the environment). */
  tokens: (envName: string) => string | undefined;
  /** Stops every sandbox this started. */
  close(): Promise<void>;
}

const isSandbox = (baseUrl: string) => baseUrl.trim() === SANDBOX_WORD;

/** Starts one sandbox per `sandbox` account; on failure, closes the ones already started. */
export async function startSandboxAccounts(
  file: PolicyFile,
  options: SandboxOptions,
  fallback: (envName: string) => string | undefined,
): Promise<SandboxAccounts> {
  const accounts = { ...(file.accounts ?? {}) };
  const sandboxes: SandboxAccount[] = [];
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c();
  };
  const own = new Map<string, string>();
  // A sandbox account's token_env must name it alone: the runtime looks tokens up by that name.
  const taken = new Set(Object.values(accounts).map((a) => a.token_env));
  const uses = (env: string) => Object.values(accounts).filter((a) => a.token_env === env).length;
  try {
    for (const [name, account] of Object.entries(accounts)) {
      if (!isSandbox(account.base_url)) continue;
      const sandbox = createSandbox(options);
      const listening = await sandbox.listen(0, '127.0.0.1');
      closers.push(() => listening.close());
      let tokenEnv = account.token_env;
      if (uses(tokenEnv) > 1) {
        const base = `${tokenEnv}_${name.toUpperCase().replace(/-/g, '_')}`;
        tokenEnv = base;
        for (let n = 2; taken.has(tokenEnv); n += 1) tokenEnv = `${base}_${n}`;
        taken.add(tokenEnv);
      }
      own.set(tokenEnv, sandbox.token);
      accounts[name] = { ...account, base_url: listening.baseUrl, token_env: tokenEnv };
      sandboxes.push({ name, sandbox, baseUrl: listening.baseUrl });
    }
  } catch (e) {
    await close();
    throw e;
  }
  return {
    file: file.accounts ? { ...file, accounts } : file,
    sandboxes,
    tokens: (envName) => own.get(envName) ?? fallback(envName),
    close,
  };
}
