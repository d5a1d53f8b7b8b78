/**
 * The secrets of the bot's own telemetry are masked in its log like its tokens: METRICS_TOKEN
 * (a scrape's bearer token) and the collector's header values (an API key in
 * OTEL_EXPORTER_OTLP_HEADERS), through the runtime's real logger.
 */
import { expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../rig/workspace.js';
import { CLOUD_TOKEN, DEFAULT_ACCESS } from './bot-rig.js';

const METRICS_TOKEN = 'metrics-scrape-token-0123456789';
const COLLECTOR_KEY = 'collector-api-key-9876543210';

it('masks METRICS_TOKEN and the collector’s header values in every log line', async () => {
  const lines: string[] = [];
  const bot = createRuntime({
    slack: { mode: 'http', botToken: BOT_TOKEN, appToken: undefined, signingSecret: SIGNING_SECRET, port: 0, apiUrl: 'http://127.0.0.1:9/api/' },
    cloud: { baseUrl: 'http://127.0.0.1:9/v2', token: CLOUD_TOKEN },
    databasePath: ':memory:',
    access: { config: DEFAULT_ACCESS },
    log: { sink: (l) => lines.push(l) },
    telemetry: {
      metricsPort: 0,
      metricsToken: METRICS_TOKEN,
      traces: { url: 'http://127.0.0.1:9/v1/traces', headers: { 'x-api-key': COLLECTOR_KEY, 'x-scope': 'team' }, serviceName: 'cloudbot', resource: {}, sampler: 'always_off', ratio: 1 },
    },
  });
  try {
    bot.logger.error(`a scrape sent Bearer-less ${METRICS_TOKEN}`, { scope: 'team', echoed: { header: `x-api-key=${COLLECTOR_KEY}`, quoted: JSON.stringify({ key: COLLECTOR_KEY }) } });
  } finally {
    await bot.stop();
  }
  const line = lines.find((l) => l.includes('a scrape sent'))!;
  expect(line).toBeDefined();
  for (const secret of [METRICS_TOKEN, COLLECTOR_KEY, 'metrics-scrape-token', 'collector-api-key']) expect(line).not.toContain(secret);
  // A short header value (a tenant, a flag) is not a secret the log can mask without garbling every line.
  expect(JSON.parse(line)).toMatchObject({ level: 'error', scope: 'team' });
});
