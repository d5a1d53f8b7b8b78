/** METRICS_* and the standard OTEL_* variables (issue 24), as config.ts reads them. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadBotConfig, type BotConfig } from '../../src/config.js';

const BASE = { SLACK_BOT_TOKEN: 'xoxb-1-2-abc', SLACK_SIGNING_SECRET: 'signing-secret-123', CLOUD_API_BASE_URL: 'https://api.example.com/v2', CLOUD_API_TOKEN: 'cloud-token' };
const load = (env: Record<string, string>) => (loadBotConfig({ ...BASE, ...env }) as BotConfig).telemetry;
const problems = (env: Record<string, string>) => {
  try {
    load(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  return '';
};

describe('telemetry configuration', () => {
  it('traces are off without an endpoint; /metrics is open on the default Socket Mode port', () => {
    expect(load({})).toEqual({ metricsPort: 9464, metricsToken: undefined, traces: undefined });
  });

  it('the base endpoint gets /v1/traces; the traces endpoint is used as it is and wins', () => {
    expect(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).traces?.url).toBe('http://collector:4318/v1/traces');
    expect(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otlp.example.com/t' }).traces?.url).toBe('https://otlp.example.com/t');
  });

  it('headers, service name, resource attributes and the sampler come from the standard variables', () => {
    const t = load({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D%3D, x-team=ops',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=chatops',
      OTEL_SERVICE_NAME: 'cloudbot-prod',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    }).traces;
    expect(t).toEqual({
      url: 'http://collector:4318/v1/traces',
      headers: { 'x-api-key': 'abc==', 'x-team': 'chatops' },
      serviceName: 'cloudbot-prod',
      resource: { 'deployment.environment': 'prod' },
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
    });
  });

  it('OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn traces off even with an endpoint', () => {
    expect(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).traces).toBeUndefined();
    expect(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).traces).toBeUndefined();
  });

  it('bad values are named in one message, without echoing them (a header may be a secret)', () => {
    const msg = problems({ METRICS_TOKEN: 'short', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318', OTEL_EXPORTER_OTLP_HEADERS: 'secret-without-equals', OTEL_TRACES_SAMPLER: 'sometimes', OTEL_TRACES_SAMPLER_ARG: '2', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(msg).toMatch(/METRICS_TOKEN must be at least 16 characters/);
    expect(msg).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/);
    expect(msg).toMatch(/OTEL_EXPORTER_OTLP_HEADERS must be a list of key=value pairs/);
    expect(msg).toMatch(/OTEL_TRACES_SAMPLER must be one of/);
    expect(msg).toMatch(/OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/);
    expect(msg).toMatch(/OTEL_EXPORTER_OTLP_PROTOCOL must be http\/json/);
    expect(msg).not.toContain('secret-without-equals');
    expect(msg).not.toContain('short');
  });
});
