/**
 * The bot rig's extra cloud accounts (issue 12): each its own sandbox on loopback with its own
 * token, so a test can tell which account every request went to and with which token.
 */
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export interface RigAccountOptions {
  token: string;
  /** The variable the policy names (token_env); default CLOUD_<NAME>_TOKEN. */
  tokenEnv?: string;
  sandbox?: SandboxOptions;
}

/** One of the rig's accounts: its sandbox, where it listens and what it accepts. */
export interface RigAccount {
  sandbox: Sandbox;
  baseUrl: string;
  token: string;
  tokenEnv: string;
}

export const tokenEnvOf = (account: string): string => `CLOUD_${account.toUpperCase().replace(/-/g, '_')}_TOKEN`;

export async function startRigAccounts(options: Record<string, RigAccountOptions> = {}) {
  const accounts: Record<string, RigAccount> = {};
  const servers: { close(): Promise<void> }[] = [];
  for (const [name, a] of Object.entries(options)) {
    const sandbox = createSandbox({ ...a.sandbox, token: a.token });
    const server = await sandbox.listen();
    servers.push(server);
    accounts[name] = { sandbox, baseUrl: server.baseUrl, token: a.token, tokenEnv: a.tokenEnv ?? tokenEnvOf(name) };
  }
  return {
    accounts,
    /** Base URLs by account name, for a policy written around them. */
    urls: Object.fromEntries(Object.entries(accounts).map(([name, a]) => [name, a.baseUrl])),
    /** The runtime's `tokens`: an account's token by the variable its policy names. */
    tokens: (env: string) => Object.values(accounts).find((a) => a.tokenEnv === env)?.token,
    async close() {
      for (const s of servers) await s.close();
    },
  };
}
