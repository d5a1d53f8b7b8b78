/**
 * The telemetry part of the runtime contract (issue 24): METRICS_* for the Prometheus endpoint,
 * and the standard OTEL_* variables for traces (off unless an OTLP endpoint is set). Pure zod and
 * parsing: config.ts alone reads the environment and hands the values in.
 */
import { z } from 'zod';
import { optional, port } from './config-fields.js';
import { isHttpUrl } from './urls.js';

export type SamplerName = 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';

export interface TracesConfig {
  /** The OTLP/HTTP traces URL (…/v1/traces), JSON encoding. */
  url: string;
  headers: Record<string, string>;
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, besides service.name. */
  resource: Record<string, string>;
  sampler: SamplerName;
  /** The ratio of the traceidratio samplers (0…1). */
  ratio: number;
}

export interface TelemetryConfig {
  /** Socket Mode's own listener (METRICS_PORT): /metrics, /healthz, /readyz; HTTP mode serves them on PORT. */
  metricsPort: number;
  /** When set, /metrics wants `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** Undefined: tracing is off (no endpoint, OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none). */
  traces: TracesConfig | undefined;
}

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
/** `key=value,key2=value2`, values percent-encoded (the OTel spec's format for headers and resource attributes). */
const pairList = optional(
  z.string().transform((v, ctx) => {
    const out: Record<string, string> = {};
    for (const item of v.split(',').map((s) => s.trim()).filter(Boolean)) {
      const at = item.indexOf('=');
      let value: string | undefined;
      try {
        value = at > 0 ? decodeURIComponent(item.slice(at + 1).trim()) : undefined;
      } catch {
        value = undefined;
      }
      // Never echo the entry: a header may carry a secret.
      if (value === undefined) ctx.addIssue({ code: 'custom', message: 'must be a list of key=value pairs separated by commas' });
      else out[item.slice(0, at).trim()] = value;
    }
    return out;
  }),
);
const url = optional(z.string().refine(isHttpUrl, { error: 'must be an http(s) URL' }));

export const telemetryEnvSchema = {
  METRICS_PORT: port(9464),
  METRICS_TOKEN: optional(z.string().min(16, { error: 'must be at least 16 characters' })),
  OTEL_SDK_DISABLED: optional(z.enum(['true', 'false'], { error: 'must be true or false' })),
  OTEL_TRACES_EXPORTER: optional(z.enum(['otlp', 'none'], { error: 'must be otlp or none' })),
  OTEL_EXPORTER_OTLP_ENDPOINT: url,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url,
  OTEL_EXPORTER_OTLP_HEADERS: pairList,
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: pairList,
  OTEL_EXPORTER_OTLP_PROTOCOL: optional(z.enum(['http/json'], { error: 'must be http/json (the bot exports OTLP/HTTP with JSON)' })),
  OTEL_SERVICE_NAME: optional(z.string().max(200)),
  OTEL_RESOURCE_ATTRIBUTES: pairList,
  OTEL_TRACES_SAMPLER: optional(z.enum(SAMPLERS, { error: `must be one of ${SAMPLERS.join(', ')}` })),
  OTEL_TRACES_SAMPLER_ARG: optional(z.coerce.number({ error: 'must be a number from 0 to 1' }).min(0, { error: 'must be a number from 0 to 1' }).max(1, { error: 'must be a number from 0 to 1' })),
};

type TelemetryEnv = z.output<z.ZodObject<typeof telemetryEnvSchema>>;

/** The OTLP base endpoint gets the signal's path; the per-signal one is used as it is (OTel spec). */
function tracesUrl(e: TelemetryEnv): string | undefined {
  if (e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (e.OTEL_EXPORTER_OTLP_ENDPOINT) return `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

export function telemetryConfig(e: TelemetryEnv): TelemetryConfig {
  const target = tracesUrl(e);
  const on = target && e.OTEL_SDK_DISABLED !== 'true' && e.OTEL_TRACES_EXPORTER !== 'none';
  const resource = { ...e.OTEL_RESOURCE_ATTRIBUTES };
  return {
    metricsPort: e.METRICS_PORT,
    metricsToken: e.METRICS_TOKEN,
    traces: on
      ? {
          url: target,
          headers: { ...e.OTEL_EXPORTER_OTLP_HEADERS, ...e.OTEL_EXPORTER_OTLP_TRACES_HEADERS },
          serviceName: e.OTEL_SERVICE_NAME ?? resource['service.name'] ?? 'cloudbot',
          resource,
          sampler: e.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on',
          ratio: e.OTEL_TRACES_SAMPLER_ARG ?? 1,
        }
      : undefined,
  };
}
