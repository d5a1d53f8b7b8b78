/** Which mode the environment selects, and what the shell needs (nothing, for the sandbox). */
import { describe, expect, it } from 'vitest';
import { ConfigError, isShellConfig, loadBotConfig, selectMode } from '../../src/config.js';

const SLACK = { SLACK_BOT_TOKEN: 'xoxb-1-2', SLACK_SIGNING_SECRET: 'secret-12345', CLOUD_API_BASE_URL: 'https://api.example.com/v2', CLOUD_API_TOKEN: 't0k' };
const problems = (env: Record<string, string>) => {
  try {
    loadBotConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
};

describe('mode selection', () => {
  it('an empty environment is the local shell on the built-in sandbox, in memory', () => {
    const c = loadBotConfig({});
    expect(isShellConfig(c)).toBe(true);
    expect(c).toMatchObject({ slack: { mode: 'shell' }, cloud: undefined, databasePath: ':memory:', logLevel: 'error', watch: { intervalMs: 3000 } });
  });

  it('SLACK_MODE=shell forces the shell even with Slack tokens', () => {
    expect(isShellConfig(loadBotConfig({ ...SLACK, SLACK_MODE: 'shell', CLOUD_API_BASE_URL: 'sandbox' }))).toBe(true);
  });

  it('Slack variables select socket or http as before', () => {
    expect(selectMode({ SLACK_APP_TOKEN: 'xapp-1' })).toBe('socket');
    expect(selectMode({ SLACK_BOT_TOKEN: 'xoxb-1' })).toBe('http');
    expect(selectMode({ SLACK_SIGNING_SECRET: 'x' })).toBe('http');
    expect(loadBotConfig(SLACK)).toMatchObject({ slack: { mode: 'http' }, cloud: { baseUrl: 'https://api.example.com/v2', token: 't0k' } });
  });
});

describe('the shell’s cloud', () => {
  it('may name a real cloud, which then needs its token and keeps a database file', () => {
    expect(problems({ SLACK_MODE: 'shell', CLOUD_API_BASE_URL: 'https://api.example.com/v2' })).toEqual([
      expect.stringMatching(/^CLOUD_API_TOKEN is required when CLOUD_API_BASE_URL names a cloud/),
    ]);
    const c = loadBotConfig({ CLOUD_API_BASE_URL: 'https://api.example.com/v2/', CLOUD_API_TOKEN: 't0k' });
    expect(c).toMatchObject({ slack: { mode: 'shell' }, cloud: { baseUrl: 'https://api.example.com/v2', token: 't0k' }, databasePath: './data/cloudbot.db' });
  });

  it('uses DATABASE_URL when set, even on the sandbox', () => {
    expect(loadBotConfig({ DATABASE_URL: 'sqlite:/tmp/x.db' })).toMatchObject({ databasePath: '/tmp/x.db', database: { kind: 'sqlite', path: '/tmp/x.db' } });
  });

  it('DATABASE_URL may name PostgreSQL (postgres:// or postgresql://); anything else is refused without echoing it', () => {
    const url = 'postgres://bot:s3cret-pw@db.internal:5432/cloudbot';
    expect(loadBotConfig({ ...SLACK, DATABASE_URL: url })).toMatchObject({ database: { kind: 'postgres', url }, databasePath: '' });
    expect(loadBotConfig({ DATABASE_URL: 'postgresql://db/cloudbot' })).toMatchObject({ database: { kind: 'postgres', url: 'postgresql://db/cloudbot' } });
    const bad = problems({ ...SLACK, DATABASE_URL: 'mysql://bot:s3cret-pw@db/cloudbot' });
    expect(bad).toEqual([expect.stringMatching(/^DATABASE_URL must be sqlite:<path> .* or postgres:\/\//)]);
    expect(bad.join()).not.toContain('s3cret');
  });

  it('still names every bad variable at once', () => {
    expect(problems({ SLACK_MODE: 'shell', CLOUD_API_BASE_URL: 'https://api.example.com/v1', WATCH_INTERVAL_MS: '5' })).toEqual([
      expect.stringMatching(/^CLOUD_API_BASE_URL must be `sandbox` or an http\(s\) URL ending in \/v2/),
      expect.stringMatching(/^WATCH_INTERVAL_MS must be at least 1000/),
      expect.stringMatching(/^CLOUD_API_TOKEN is required/),
    ]);
  });

  it('in Slack modes, `sandbox` is refused with what to do instead', () => {
    expect(problems({ ...SLACK, CLOUD_API_BASE_URL: 'sandbox' })).toEqual([expect.stringMatching(/only the local shell starts/)]);
  });
});
