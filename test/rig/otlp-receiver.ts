/**
 * An OTLP/HTTP traces receiver on loopback (issue 24), as a collector's otlphttp receiver
 * behaves: POST /v1/traces with `application/json` only (anything else: 404 / 405 / 415, as the
 * collector answers), the body an ExportTraceServiceRequest whose ids are hex strings of the
 * right length; the answer `{}` (full success). What it received is kept, flattened to spans.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP's number: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string }[];
  status: { code?: number } | undefined;
  resource: Record<string, string | number | boolean>;
}

export interface OtlpReceiver {
  /** The traces URL (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). */
  url: string;
  spans: ReceivedSpan[];
  /** Raw request bodies, for "nothing secret anywhere" checks. */
  bodies: string[];
  /** Requests refused (wrong path, method, type or shape). */
  refused: string[];
  /** Headers of the last export (OTEL_EXPORTER_OTLP_HEADERS). */
  lastHeaders: Record<string, string | string[] | undefined>;
  close(): Promise<void>;
}

const flat = (kvs: KeyValue[] | undefined) =>
  Object.fromEntries((kvs ?? []).map(({ key, value }) => [key, value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined) ?? value.boolValue ?? value.doubleValue ?? '']));
const hex = (n: number) => new RegExp(`^[0-9a-f]{${n}}$`);

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const receiver: Omit<OtlpReceiver, 'url' | 'close'> = { spans: [], bodies: [], refused: [], lastHeaders: {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const refuse = (status: number, why: string) => {
        receiver.refused.push(why);
        res.statusCode = status;
        res.end();
      };
      if (req.url !== '/v1/traces') return refuse(404, `path ${req.url}`);
      if (req.method !== 'POST') return refuse(405, `method ${req.method}`);
      if (!String(req.headers['content-type']).startsWith('application/json')) return refuse(415, `content-type ${req.headers['content-type']}`);
      const text = Buffer.concat(chunks).toString('utf8');
      let body: { resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: Record<string, unknown>[] }[] }[] };
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        return refuse(400, 'not JSON');
      }
      if (!Array.isArray(body.resourceSpans)) return refuse(400, 'no resourceSpans');
      const spans: ReceivedSpan[] = [];
      for (const rs of body.resourceSpans) {
        const resource = flat(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            const span = s as { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: KeyValue[]; links?: { traceId: string; spanId: string }[]; status?: { code?: number } };
            if (!hex(32).test(span.traceId) || !hex(16).test(span.spanId) || (span.parentSpanId && !hex(16).test(span.parentSpanId))) return refuse(400, 'ids are not hex of the right length');
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: span.kind,
              attributes: flat(span.attributes),
              links: (span.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
              status: span.status,
              resource,
            });
          }
        }
      }
      receiver.spans.push(...spans);
      receiver.bodies.push(text);
      receiver.lastHeaders = req.headers;
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    get spans() {
      return receiver.spans;
    },
    get bodies() {
      return receiver.bodies;
    },
    get refused() {
      return receiver.refused;
    },
    get lastHeaders() {
      return receiver.lastHeaders;
    },
    url: `http://127.0.0.1:${port}/v1/traces`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
