/** Metrics and traces (issue 24): a leaf every layer may be handed, through deps. */
import type { TracesConfig } from '../config-telemetry.js';
import { createMetrics } from './metrics.js';
import type { Telemetry } from './observe.js';
import { createTracing } from './tracing.js';

export { createMetrics, type GaugeSources, type Metrics, type RequestKind } from './metrics.js';
export { createTracing, linkFrom, noTracing, type TraceSteps, type Tracing } from './tracing.js';
export { cloudAttempts, observeAuditor, observeSlackCalls, observeStore, requestKind, workKind, type Telemetry } from './observe.js';
export { listenForMetrics, metricsHandler, METRICS_PATH, type MetricsServer, type RouteHandler } from './metrics-endpoint.js';

/** A registry of the runtime's own, and a tracer provider when traces are configured. */
export function createTelemetry(traces: TracesConfig | undefined): Telemetry {
  return { metrics: createMetrics(), tracing: createTracing(traces) };
}
