/**
 * Issue 12 item 5: `ACCESS_POLICY=examples/policy.sandbox.yaml npm start` runs two sandbox
 * accounts, and `channel` shows the mapping — each channel's commands reach its account's
 * sandbox and no other; `--account` reaches another where the channel allows it; a channel's
 * ceiling refuses a destroy, naming its rule. A bad file ends start-up with its one message.
 */
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PolicyFileError, parsePolicyText } from '../../src/access/policy-file.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { startSandboxAccounts } from '../../src/shell/sandbox-accounts.js';
import { waitFor } from '../rig/wait-for.js';
import { startShellHarness, type ShellHarness } from './harness.js';

const EXAMPLE = new URL('../../examples/policy.sandbox.yaml', import.meta.url).pathname;
const REPO = 'https://github.com/acme/demo.git';

let h: ShellHarness;
let prod: Sandbox;
let staging: Sandbox;
beforeAll(async () => {
  h = await startShellHarness({ ACCESS_POLICY: EXAMPLE });
  prod = h.shell.sandboxes.prod!;
  staging = h.shell.sandboxes.staging!;
});
afterAll(async () => {
  await h?.end();
});

/** What each sandbox received since `marks`, as `METHOD path` lines. */
const mark = () => ({ prod: prod.requests.length, staging: staging.requests.length });
const since = (m: { prod: number; staging: number }) => ({
  prod: prod.requests.slice(m.prod).map((r) => `${r.method} ${r.path}`),
  staging: staging.requests.slice(m.staging).map((r) => `${r.method} ${r.path}`),
});

/** Runs a line and waits for the reply that ends in `done`. */
async function run(line: string, done: RegExp): Promise<string> {
  const from = h.mark();
  h.type(line);
  await h.waitFor(done, from);
  return h.since(from);
}

describe('two sandbox accounts from examples/policy.sandbox.yaml', () => {
  it('starts a sandbox per account, each with its own token, and the banner names them', () => {
    expect(prod).toBeDefined();
    expect(staging).toBeDefined();
    expect(prod).not.toBe(staging);
    expect(prod.token).not.toBe(staging.token);
    const first = h.output().split('\n')[0]!;
    expect(first).toMatch(
      /^cloudbot shell — accounts: prod \(sandbox at http:\/\/127\.0\.0\.1:\d+\/v2\), staging \(default, sandbox at http:\/\/127\.0\.0\.1:\d+\/v2\) \(not Slack\)\. Type \/cloud help; channel lists the channels and switches between them; Ctrl-D quits\./,
    );
    expect(h.shell.sandbox).toBe(staging); // the default account's
  });

  it('`channel` lists #shell and the file’s channels with their accounts, the current one marked', async () => {
    const out = await run('channel', /Switch with: channel NAME/);
    expect(out).toContain('* #shell     CSHELL0001  account staging');
    expect(out).toContain('  #prod-ops  CPRODOPS01  account prod · ceiling read, change');
    expect(out).toContain('  #staging   CSTAGING01  account staging (--account prod too)');
  });

  it('#shell (no rule of its own) drives the default account', async () => {
    const m = mark();
    await run('/cloud server status 101', /Account: `staging`/);
    expect(since(m).prod).toEqual([]);
    expect(since(m).staging.some((r) => r.startsWith('GET /servers/101'))).toBe(true);
  });

  it('in #prod-ops, a status reaches the prod sandbox only, with prod’s token', async () => {
    expect(await run('channel prod-ops', /Now in/)).toContain('Now in #prod-ops (CPRODOPS01) — account prod · ceiling read, change.');
    const m = mark();
    await run('/cloud server status 101', /Account: `prod`/);
    const got = since(m);
    expect(got.staging).toEqual([]);
    expect(got.prod.some((r) => r.startsWith('GET /servers/101'))).toBe(true);
    expect(prod.requests.slice(m.prod).every((r) => r.token === prod.token)).toBe(true);
    // The reply went to the channel the command came from.
    const reply = [...h.shell.slack.model.ephemerals.values()].at(-1)!;
    expect(reply.channel).toBe('CPRODOPS01');
  });

  it('in #prod-ops, the example’s inventory names work at once, and `server known` says where each came from', async () => {
    const m = mark();
    await run('/cloud server status billing-db', /Account: `prod`/);
    expect(since(m)).toEqual({ prod: ['GET /servers/102/status'], staging: [] });
    const out = await run('/cloud server known', /A name works wherever the id goes/);
    expect(out).toMatch(/billing-db.*policy file inventory, home #prod-ops/);
    expect(out).toMatch(/web-1.*sandbox seed/);
  });

  it('in #prod-ops, a destroy is refused by the channel’s ceiling, naming the rule; nothing reaches either cloud', async () => {
    const m = mark();
    const out = await run('/cloud server reinstall 101', /Nothing was done/);
    expect(out).toContain('channels.CPRODOPS01.ceiling');
    expect(since(m)).toEqual({ prod: [], staging: [] });
  });

  it('a change in #prod-ops is posted in #prod-ops and made on prod only', async () => {
    const m = mark();
    const out = await run('/cloud server rename 101 web-renamed', /cloudbot in #prod-ops[^\n]*:\n[^\n]*Rename server `101`/);
    expect(out).toMatch(/cloudbot in #prod-ops/);
    const posted = [...h.shell.slack.model.messages.values()].at(-1)!;
    expect(posted.channel).toBe('CPRODOPS01');
    await waitFor(() => since(m).prod.some((r) => !r.startsWith('GET ')));
    expect(since(m).staging).toEqual([]);
    expect(prod.state.servers.find((s) => s.id === 101)?.name).toBe('web-renamed');
    expect(staging.state.servers.find((s) => s.id === 101)?.name).not.toBe('web-renamed');
  });

  it('`channel staging` (by name or id): the same status reaches the staging sandbox only', async () => {
    expect(await run('channel CSTAGING01', /Now in/)).toContain('Now in #staging (CSTAGING01)');
    const m = mark();
    await run('/cloud server status 101', /Account: `staging`/);
    const got = since(m);
    expect(got.prod.filter((r) => r.startsWith('GET /servers/101'))).toEqual([]);
    expect(got.staging.some((r) => r.startsWith('GET /servers/101'))).toBe(true);
  });

  it('in #staging, `--account prod` reaches the prod sandbox', async () => {
    const m = mark();
    await run('/cloud server status 101 --account prod', /Account: `prod`/);
    const got = since(m);
    expect(got.prod.some((r) => r.startsWith('GET /servers/101'))).toBe(true);
    expect(got.staging.filter((r) => r.startsWith('GET /servers/101'))).toEqual([]);
  });

  it('a deploy asked in #staging and confirmed from #prod-ops runs in #staging, on staging: a click comes from its message’s channel', async () => {
    const m = mark();
    const from = h.mark();
    h.type(`/cloud worker deploy --name demo --location 1 --repo ${REPO}`);
    const confirm = await h.waitFor(/\[(\d+)\] Confirm {2}\[(\d+)\] Cancel/, from);
    expect(h.since(from)).toMatch(/^cloud #staging> \/cloud worker deploy [^\n]*\ncloudbot in #staging:/);
    await run('channel prod-ops', /Now in #prod-ops/);
    h.type(confirm[1]!);
    await h.waitFor(/cloudbot in #staging \(updated\):\n[^\n]*Deploy worker `demo`[^\n]*— done/, from);
    const got = since(m);
    expect(got.staging.filter((r) => r === 'POST /workers')).toHaveLength(1);
    expect(got.prod.filter((r) => r === 'POST /workers')).toHaveLength(0);
  });

  it('an unknown channel is named, and the current one kept', async () => {
    expect(await run('channel nowhere', /There is no channel/)).toContain('There is no channel nowhere here. Type channel to list them.');
    expect(await run('channel', /Switch with/)).toContain('* #prod-ops ');
  });
});

describe('sandbox accounts sharing a token_env', () => {
  it('each gets a variable of its own, answered with its own sandbox’s token; real accounts keep theirs', async () => {
    const file = parsePolicyText(
      [
        'version: 1',
        'default_account: a',
        'accounts:',
        '  a: { base_url: sandbox, token_env: SHARED }',
        '  b: { base_url: sandbox, token_env: SHARED }',
        '  real: { base_url: "https://api.example.com/v2", token_env: REAL_TOKEN }',
        'default_channel: deny',
        'channels: {}',
      ].join('\n'),
      'inline.yaml',
      { hasEnv: () => true, allowSandbox: true },
    );
    const started = await startSandboxAccounts(file, { seed: false }, (name) => (name === 'REAL_TOKEN' ? 'real-secret' : undefined));
    try {
      const accounts = started.file.accounts!;
      const [a, b] = started.sandboxes;
      expect(accounts.a!.token_env).not.toBe(accounts.b!.token_env);
      expect(started.tokens(accounts.a!.token_env)).toBe(a!.sandbox.token);
      expect(started.tokens(accounts.b!.token_env)).toBe(b!.sandbox.token);
      expect(accounts.a!.base_url).toBe(a!.baseUrl);
      expect(accounts.real).toEqual(file.accounts!.real);
      expect(started.tokens('REAL_TOKEN')).toBe('real-secret');
    } finally {
      await started.close();
    }
  });
});

describe('a bad policy file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cloudbot-policy-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ends start-up with its one message; nothing is left running', async () => {
    const path = join(dir, 'bad.yaml');
    writeFileSync(path, 'version: 1\ndefault_account: nowhere\naccounts:\n  prod: { base_url: sandbox, token_env: CLOUD_PROD_TOKEN }\ndefault_channel: deny\nchannels: {}\n');
    const started = startShellHarness({ ACCESS_POLICY: path });
    await expect(started).rejects.toThrow(PolicyFileError);
    await expect(started).rejects.toThrow(`ACCESS_POLICY: ${path} has problems:\n  - default_account names account nowhere, which accounts does not declare`);
  });

  it('a file that cannot be read is named', async () => {
    const path = join(dir, 'missing.yaml');
    await expect(startShellHarness({ ACCESS_POLICY: path })).rejects.toThrow(`ACCESS_POLICY: cannot read ${path} (ENOENT)`);
  });
});
