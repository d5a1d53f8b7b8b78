/** CLOUD_PANEL_URL and CLOUD_WORKERS_DOMAIN (issue 23): read only in config.ts, validated, and defaulted for the sandbox shell. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadBotConfig } from '../../src/config.js';

const HTTP = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret-12345678', CLOUD_API_BASE_URL: 'https://api.example.com/v2', CLOUD_API_TOKEN: 't' };

describe('unfurl configuration', () => {
  it('takes the panel URL (trailing slash dropped) and the workers domain (lower-cased)', () => {
    const c = loadBotConfig({ ...HTTP, CLOUD_PANEL_URL: 'https://panel.example.com/app/', CLOUD_WORKERS_DOMAIN: 'Workers.Example.com' });
    expect(c.unfurl).toEqual({ panelUrl: 'https://panel.example.com/app', workersDomain: 'workers.example.com' });
  });

  it('unset: nothing unfurls', () => {
    expect(loadBotConfig(HTTP).unfurl).toEqual({});
  });

  it('refuses a panel that is not an http(s) URL and a domain that is not a domain, naming both at once', () => {
    let err: unknown;
    try {
      loadBotConfig({ ...HTTP, CLOUD_PANEL_URL: 'panel.example.com', CLOUD_WORKERS_DOMAIN: 'https://workers.example.com' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems.join('\n')).toMatch(/CLOUD_PANEL_URL must be[\s\S]*CLOUD_WORKERS_DOMAIN must be a domain name/);
  });

  it('the sandbox shell unfurls the sandbox’s workers and a made-up panel unless told otherwise', () => {
    expect(loadBotConfig({ SLACK_MODE: 'shell' }).unfurl).toEqual({ panelUrl: 'https://panel.example.net', workersDomain: 'workers.example.net' });
    expect(loadBotConfig({ SLACK_MODE: 'shell', CLOUD_PANEL_URL: 'https://p.example.org' }).unfurl.panelUrl).toBe('https://p.example.org');
  });
});
