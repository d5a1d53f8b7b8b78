import { describe, expect, it } from 'vitest';
import { ConfigError, loadCloudConfig, loadHealthPort, loadSandboxConfig } from '../../src/config.js';

describe('loadCloudConfig', () => {
  it('accepts a /v2 base URL and strips a trailing slash', () => {
    const c = loadCloudConfig({ CLOUD_API_BASE_URL: 'https://api.example.com/v2/', CLOUD_API_TOKEN: 't0k' });
    expect(c).toEqual({ baseUrl: 'https://api.example.com/v2', token: 't0k' });
  });

  it('reports every bad or missing variable in one message', () => {
    let err: unknown;
    try {
      loadCloudConfig({ CLOUD_API_BASE_URL: 'https://api.example.com/v1' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as ConfigError).message;
    expect(msg).toMatch(/CLOUD_API_BASE_URL must be an http\(s\) URL ending in \/v2/);
    expect(msg).toMatch(/CLOUD_API_TOKEN is required/);
    expect((err as ConfigError).problems).toHaveLength(2);
  });

  it('refuses a non-URL and treats an empty value as missing', () => {
    expect(() => loadCloudConfig({ CLOUD_API_BASE_URL: 'not a url', CLOUD_API_TOKEN: '' })).toThrow(
      /CLOUD_API_BASE_URL[\s\S]*CLOUD_API_TOKEN is required/,
    );
  });

  it('never echoes a value back', () => {
    let err: unknown;
    try {
      loadCloudConfig({ CLOUD_API_BASE_URL: 'ftp://secret-host.example/v2', CLOUD_API_TOKEN: '' });
    } catch (e) {
      err = e;
    }
    // It must refuse (a test that passes when nothing throws proves nothing), naming the variable only.
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toMatch(/CLOUD_API_BASE_URL/);
    expect(String(err)).not.toContain('secret-host');
  });
});

describe('loadSandboxConfig', () => {
  it('defaults the port and leaves the token to be generated', () => {
    expect(loadSandboxConfig({})).toEqual({ port: 8787, token: undefined });
  });
  it('validates the port', () => {
    expect(() => loadSandboxConfig({ SANDBOX_PORT: 'abc' })).toThrow(/SANDBOX_PORT/);
  });
});

describe('loadHealthPort (the container HEALTHCHECK)', () => {
  it('is PORT in HTTP mode, METRICS_PORT in Socket Mode (its own listener), none in the shell', () => {
    expect(loadHealthPort({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret-123', PORT: '8080', METRICS_PORT: '9000' })).toBe(8080);
    expect(loadHealthPort({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1', PORT: '8080', METRICS_PORT: '9000' })).toBe(9000);
    expect(loadHealthPort({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' })).toBe(9464);
    expect(loadHealthPort({ SLACK_MODE: 'http', SLACK_APP_TOKEN: 'xapp-1' })).toBe(3000);
    expect(loadHealthPort({})).toBeUndefined();
  });
});
