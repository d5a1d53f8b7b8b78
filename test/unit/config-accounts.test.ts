import { describe, expect, it } from 'vitest';
import { ConfigError, envIsSet, envToken, loadBotConfig, type BotConfig } from '../../src/config.js';

const SLACK = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret-12345' };

describe('configuration with a policy file of accounts (issue 12)', () => {
  it('needs no CLOUD_API_* when ACCESS_POLICY is set (the file declares the accounts)', () => {
    const c = loadBotConfig({ ...SLACK, ACCESS_POLICY: 'policy.yml' }) as BotConfig;
    expect(c.cloud).toBeUndefined();
    expect(c.access.policyFile).toBe('policy.yml');
    expect(c.access.policyReloadMs).toBe(60_000);
  });

  it('still requires CLOUD_API_* without a policy file, and checks a half-set pair with one', () => {
    expect(() => loadBotConfig({ ...SLACK })).toThrow(/CLOUD_API_BASE_URL is required[\s\S]*CLOUD_API_TOKEN is required/);
    expect(() => loadBotConfig({ ...SLACK, ACCESS_POLICY: 'p.yml', CLOUD_API_BASE_URL: 'https://x.example/v2' })).toThrow(/CLOUD_API_TOKEN is required/);
    const both = loadBotConfig({ ...SLACK, ACCESS_POLICY: 'p.yml', CLOUD_API_BASE_URL: 'https://x.example/v2', CLOUD_API_TOKEN: 't' }) as BotConfig;
    expect(both.cloud).toEqual({ baseUrl: 'https://x.example/v2', token: 't' });
  });

  it('ACCESS_POLICY_RELOAD_MS: 0 (SIGHUP only) or at least 1000', () => {
    const base = { ...SLACK, ACCESS_POLICY: 'p.yml' };
    expect((loadBotConfig({ ...base, ACCESS_POLICY_RELOAD_MS: '0' }) as BotConfig).access.policyReloadMs).toBe(0);
    expect((loadBotConfig({ ...base, ACCESS_POLICY_RELOAD_MS: '5000' }) as BotConfig).access.policyReloadMs).toBe(5000);
    for (const bad of ['500', 'soon', '-1']) {
      expect(() => loadBotConfig({ ...base, ACCESS_POLICY_RELOAD_MS: bad }), bad).toThrow(ConfigError);
    }
  });

  it('reads an account token by its variable name, empty meaning unset', () => {
    const env = { CLOUD_PROD_TOKEN: ' tok ', EMPTY: ' ' };
    expect(envToken('CLOUD_PROD_TOKEN', env)).toBe('tok');
    expect(envToken('EMPTY', env)).toBeUndefined();
    expect(envIsSet('CLOUD_PROD_TOKEN', env)).toBe(true);
    expect(envIsSet('EMPTY', env)).toBe(false);
    expect(envIsSet('MISSING', env)).toBe(false);
  });
});
