/** Issue 14: configuration problems in plain words, never zod's. */
import { describe, expect, it } from 'vitest';
import { botEnvSchema, ConfigError, loadBotConfig, loadCloudConfig, loadSandboxConfig } from '../../src/config.js';

const ZOD = /\bexpected\b|\breceived\b|Invalid input|Too big|Too small|Invalid (string|number|option|element|key|union|format)/i;
const BASE = { CLOUD_API_BASE_URL: 'https://api.example.com/v2', CLOUD_API_TOKEN: 't0k', SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' };

function problems(load: () => unknown): string[] {
  try {
    load();
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration messages', () => {
  it('says an empty CLOUD_API_BASE_URL is required', () => {
    expect(problems(() => loadCloudConfig({ CLOUD_API_BASE_URL: '', CLOUD_API_TOKEN: 't' }))).toEqual([
      expect.stringMatching(/^CLOUD_API_BASE_URL is required/),
    ]);
    expect(problems(() => loadBotConfig({ ...BASE, CLOUD_API_BASE_URL: '  ' }))).toEqual([expect.stringMatching(/^CLOUD_API_BASE_URL is required/)]);
  });

  it('with only SLACK_BOT_TOKEN set, names SLACK_APP_TOKEN for Socket Mode too', () => {
    const said = problems(() => loadBotConfig({ CLOUD_API_BASE_URL: BASE.CLOUD_API_BASE_URL, CLOUD_API_TOKEN: 't', SLACK_BOT_TOKEN: 'xoxb-1' })).join('\n');
    expect(said).toMatch(/SLACK_SIGNING_SECRET/);
    expect(said).toMatch(/Socket Mode, set SLACK_APP_TOKEN/);
  });

  it('a bad PORT is answered in plain words', () => {
    expect(problems(() => loadBotConfig({ ...BASE, PORT: 'abc' }))).toEqual(['PORT must be a port number from 0 to 65535']);
    expect(problems(() => loadSandboxConfig({ SANDBOX_PORT: '70000' }))).toEqual(['SANDBOX_PORT must be a port number from 0 to 65535']);
  });

  it('no variable answers in zod’s words, whatever it is set to', () => {
    const bad = ['abc', '-1', '1.5', 'NaN', '99999999999', 'x'.repeat(500), '1e3', ',,', 'true'];
    let seen = 0;
    for (const name of Object.keys(botEnvSchema.shape)) {
      for (const value of bad) {
        let said: string[] = [];
        try {
          loadBotConfig({ ...BASE, [name]: value });
        } catch (e) {
          if (!(e instanceof ConfigError)) throw e;
          said = e.problems;
        }
        seen += said.length;
        for (const p of said) expect(p, `${name}=${value.slice(0, 20)}`).not.toMatch(ZOD);
      }
    }
    expect(seen).toBeGreaterThan(50);
  });
});
