/**
 * The container's HEALTHCHECK (Dockerfile): exits 0 when this replica's `/readyz` answers 200,
 * in either mode — HTTP mode serves it on PORT, Socket Mode on METRICS_PORT (config.ts says
 * which). Node's own fetch: slim images have no curl.
 */
import { loadDotEnv, loadHealthPort } from './config.js';

try {
  loadDotEnv(); // as main.ts does, so both read the same settings
  const port = loadHealthPort();
  if (port === undefined) process.exit(1); // the local shell serves no probe
  const res = await fetch(`http://127.0.0.1:${port}/readyz`);
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
