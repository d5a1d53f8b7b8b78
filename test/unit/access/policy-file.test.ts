/**
 * The policy file: a good two-account file parses; a file with many problems is refused with
 * one PolicyFileError naming each of them; the older roles-only form is still read.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePolicyText, PolicyFileChanging, PolicyFileError, readPolicyFile } from '../../../src/access/policy-file.js';

const SET = new Set(['CLOUD_PROD_TOKEN', 'CLOUD_STAGING_TOKEN']);
const options = { hasEnv: (name: string) => SET.has(name) };

const GOOD = `
version: 1
default_account: staging
accounts:
  prod:    { base_url: https://api.example.com/v2, token_env: CLOUD_PROD_TOKEN, ceiling: [read, change, destroy] }
  staging: { base_url: https://staging.example.com/v2/, token_env: CLOUD_STAGING_TOKEN, approval: [destroy] }
default_channel: deny
channels:
  C0PROD001:
    name: prod-ops
    account: prod
    accounts: [staging]
    ceiling: [read, change]
    approval: [change]
    admins: [U0ALICE01]
  C0STAGE01:
    account: staging
    ceiling: [read, change, billing, destroy, secret]
    approval: []
    operators: [S0ONCALL1]
`;

/** Thrown error of `fn`, which must be a PolicyFileError. */
function refusal(fn: () => unknown): PolicyFileError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PolicyFileError);
    return e as PolicyFileError;
  }
  throw new Error('expected a PolicyFileError, nothing was thrown');
}

describe('a good file', () => {
  it('parses prod and staging, their channels and the deny default', () => {
    const file = parsePolicyText(GOOD, 'policy.yaml', options);
    expect(file.version).toBe(1);
    expect(file.default_account).toBe('staging');
    expect(file.default_channel).toBe('deny');
    expect(Object.keys(file.accounts!)).toEqual(['prod', 'staging']);
    expect(file.accounts!.prod).toMatchObject({ base_url: 'https://api.example.com/v2', token_env: 'CLOUD_PROD_TOKEN', ceiling: ['read', 'change', 'destroy'] });
    expect(file.channels.C0PROD001).toMatchObject({ name: 'prod-ops', account: 'prod', accounts: ['staging'], ceiling: ['read', 'change'], approval: ['change'], admins: ['U0ALICE01'], operators: [], viewers: [] });
    expect(file.channels.C0STAGE01).toMatchObject({ account: 'staging', operators: ['S0ONCALL1'] });
  });

  it('is read from disk the same way; a missing file is one PolicyFileError naming the path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'policy-file-'));
    try {
      const path = join(dir, 'policy.yaml');
      writeFileSync(path, GOOD);
      expect(readPolicyFile(path, options)).toEqual(parsePolicyText(GOOD, path, options));
      const missing = refusal(() => readPolicyFile(join(dir, 'nope.yaml'), options));
      expect(missing.message).toContain('nope.yaml');
      expect(missing.message).toContain('ENOENT');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the token is never read, only whether its variable is set', () => {
    const asked: string[] = [];
    parsePolicyText(GOOD, 'p', { hasEnv: (n) => (asked.push(n), true) });
    expect(asked.sort()).toEqual(['CLOUD_PROD_TOKEN', 'CLOUD_STAGING_TOKEN']);
  });
});

describe('a bad file', () => {
  it('schema-clean but cross-wrong: one error naming every problem', () => {
    const text = `
accounts:
  prod:    { base_url: https://api.example.com/v2, token_env: CLOUD_PROD_TOKEN }
  staging: { base_url: https://api.example.com/v1, token_env: CLOUD_STAGING_TOKEN }
  dev:     { base_url: https://dev.example.com/v2, token_env: CLOUD_DEV_TOKEN }
channels:
  C0PROD001: { account: prodd, ceiling: [read] }
  C0STAGE01: { accounts: [qa] }
`;
    const e = refusal(() => parsePolicyText(text, 'bad.yaml', options));
    const lines = e.message.split('\n').slice(1);
    expect(e.message.split('\n')[0]).toContain('bad.yaml');
    expect(e.message).toMatch(/version is required/); // guardrails without `version: 1`
    expect(e.message).toMatch(/accounts\.staging\.base_url must be an http\(s\) URL ending in \/v2/);
    expect(e.message).toMatch(/accounts\.dev\.token_env names CLOUD_DEV_TOKEN, which is not set/);
    expect(e.message).toMatch(/default_account is required when several accounts are declared/);
    expect(e.message).toMatch(/channels\.C0PROD001\.account names account prodd, which accounts does not declare/);
    expect(e.message).toMatch(/channels\.C0STAGE01\.accounts names account qa, which accounts does not declare/);
    expect(lines).toHaveLength(6);
  });

  it('schema problems: a bad tier, a bad channel id, a bad token_env and an unknown key, all in one error', () => {
    const text = `
version: 1
accounts:
  prod: { base_url: https://api.example.com/v2, token_env: lower_case }
channels:
  C0PROD001: { account: prod, ceiling: [read, nuke] }
  general:   { account: prod }
  C0OTHER01: { account: prod, colour: blue }
`;
    const e = refusal(() => parsePolicyText(text, 'bad.yaml', options));
    expect(e.message).toMatch(/channels\.C0PROD001\.ceiling\.1 must be one of read, change, billing, destroy, secret/);
    expect(e.message).toMatch(/channels\.general.*must be a channel id like C0123ABCD/);
    expect(e.message).toMatch(/accounts\.prod\.token_env must be an environment variable name/);
    expect(e.message).toMatch(/colour/);
    // prod is declared, if broken: channels naming it are not also told it is unknown.
    expect(e.message).not.toMatch(/names account prod/);
  });

  it('schema and cross-reference problems together: every one is named in the same error', () => {
    // The brief's list in one file: unknown account, unset token_env, bad base_url, no version
    // with guardrails, a bad tier, a bad channel id, several accounts without default_account.
    const text = `
accounts:
  prod:    { base_url: https://api.example.com/v2, token_env: CLOUD_PROD_TOKEN }
  staging: { base_url: ftp://api.example.com/v2, token_env: CLOUD_STAGING_TOKEN }
  dev:     { base_url: https://dev.example.com/v2, token_env: CLOUD_DEV_TOKEN }
channels:
  C0PROD001: { account: prodd }
  C0STAGE01: { account: staging, ceiling: [read, nuke] }
  general:   { account: ghost }
`;
    const e = refusal(() => parsePolicyText(text, 'bad.yaml', options));
    expect(e.message).toMatch(/channels\.C0STAGE01\.ceiling\.1 must be one of/);
    expect(e.message).toMatch(/channels\.general.*must be a channel id/);
    expect(e.message).toMatch(/version is required/);
    expect(e.message).toMatch(/accounts\.staging\.base_url must be an http\(s\) URL/);
    expect(e.message).toMatch(/accounts\.dev\.token_env names CLOUD_DEV_TOKEN, which is not set/);
    expect(e.message).toMatch(/default_account is required when several accounts are declared/);
    expect(e.message).toMatch(/channels\.C0PROD001\.account names account prodd/);
    expect(e.message).toMatch(/channels\.general\.account names account ghost/);
    // Neither a broken account nor a broken channel rule adds false problems of its own.
    expect(e.message.split('\n').slice(1)).toHaveLength(8);
  });

  it('not YAML: one error naming the file', () => {
    const e = refusal(() => parsePolicyText('channels: [unclosed', 'broken.yaml', options));
    expect(e.message).toMatch(/broken\.yaml is not valid YAML/);
  });

  it('`sandbox` as a base_url only where the shell allows it, and then no token is needed', () => {
    const text = 'version: 1\naccounts:\n  local: { base_url: sandbox, token_env: CLOUD_LOCAL_TOKEN }\ndefault_channel: deny\nchannels: {}\n';
    expect(refusal(() => parsePolicyText(text, 'p', options)).message).toMatch(/accounts\.local\.base_url is `sandbox`/);
    expect(parsePolicyText(text, 'p', { ...options, allowSandbox: true }).accounts!.local!.base_url).toBe('sandbox');
  });

  it('several accounts are fine without default_account when default_channel denies or names one', () => {
    const two = 'version: 1\naccounts:\n  prod: { base_url: https://a.example.com/v2, token_env: CLOUD_PROD_TOKEN }\n  staging: { base_url: https://b.example.com/v2, token_env: CLOUD_STAGING_TOKEN }\nchannels: {}\n';
    expect(() => parsePolicyText(`${two}default_channel: deny\n`, 'p', options)).not.toThrow();
    expect(() => parsePolicyText(`${two}default_channel: { account: staging, ceiling: [read], approval: [] }\n`, 'p', options)).not.toThrow();
    expect(() => parsePolicyText(`${two}default_channel: { ceiling: [read] }\n`, 'p', options)).toThrow(/default_account is required/);
  });
});

describe('the older form', () => {
  it('no version, roles per channel only: still parses', () => {
    const file = parsePolicyText('channels:\n  C0OPS0001:\n    admins: [U0ALICE01]\n    operators: [S0ONCALL1]\n', 'old.yaml', options);
    expect(file.version).toBeUndefined();
    expect(file.accounts).toBeUndefined();
    expect(file.channels.C0OPS0001).toEqual({ admins: ['U0ALICE01'], operators: ['S0ONCALL1'], viewers: [] });
  });

  it('an empty file (one cut to nothing mid-save) is refused, not read as "no rules"', () => {
    for (const text of ['', '# only a comment\n']) expect(refusal(() => parsePolicyText(text, 'empty.yaml', options)).message).toMatch(/the file is empty/);
  });
});

/** Issue 21 item 4: a version-1 file states every key whose absence would widen access. */
describe('absent keys fail closed', () => {
  const at = (text: string, cut: string) => text.slice(0, text.indexOf(cut));

  it('the file cut just before `default_channel:` is refused, naming what is missing', () => {
    const lines = refusal(() => parsePolicyText(at(GOOD, 'default_channel:'), 'cut.yaml', options)).message.split('\n').slice(1);
    expect(lines).toEqual([
      '  - default_channel is required (`deny`, or a rule for channels not listed; absent would allow them)',
      '  - channels is required (`channels: {}` for none)',
    ]);
  });

  it("a channel rule without its ceiling, approval or account is refused (each would widen it)", () => {
    const cut = at(GOOD, '    ceiling: [read, change, billing');
    const e = refusal(() => parsePolicyText(cut, 'cut.yaml', options));
    expect(e.message).toContain('channels.C0STAGE01.ceiling is required (list every tier to allow them all)');
    expect(e.message).toContain('channels.C0STAGE01.approval is required (`approval: []` for none)');
    const noAccount = GOOD.replace('    account: staging\n', '');
    expect(refusal(() => parsePolicyText(noAccount, 'p', options)).message).toContain('channels.C0STAGE01.account is required in a file that declares accounts');
    const rule = GOOD.replace('default_channel: deny', 'default_channel: { account: staging }');
    expect(refusal(() => parsePolicyText(rule, 'p', options)).message).toMatch(/default_channel\.ceiling is required[^]*default_channel\.approval is required/);
  });

  it('a file without `version` (roles per channel only) needs none of them', () => {
    expect(() => parsePolicyText('channels:\n  C0OPS0001:\n    admins: [U0ALICE01]\n', 'old.yaml', options)).not.toThrow();
  });
});

describe('a file that changes while it is read', () => {
  it('is not judged: PolicyFileChanging, whatever either half says', () => {
    const dir = mkdtempSync(join(tmpdir(), 'policy-file-'));
    try {
      const path = join(dir, 'policy.yaml');
      writeFileSync(path, GOOD);
      let reads = 0;
      // An editor's save lands between the two reads.
      const reader = {
        stat: (p: string) => statSync(p),
        read: (p: string) => {
          const text = readFileSync(p, 'utf8');
          if (reads++ === 0) writeFileSync(p, GOOD.replace('default_channel: deny', 'default_channel: { account: staging, ceiling: [read], approval: [] }'));
          return text;
        },
      };
      const e = refusal(() => readPolicyFile(path, { ...options, reader }));
      expect(e).toBeInstanceOf(PolicyFileChanging);
      expect(e.message).toContain(`${path} changed while it was read`);
      expect(readPolicyFile(path, { ...options, reader }).default_channel).toMatchObject({ ceiling: ['read'] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
