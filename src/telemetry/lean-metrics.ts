/**
 * Counters and histograms for the hot paths (every ack, store call, Slack call and cloud try).
 * prom-client's own cost ~1.6–2 µs per observe (label hashing, exemplar checks), and a command
 * makes several store calls; these cost an array walk and two adds, and are shown by the same
 * registry, in the same text format, at scrape time (prom-client's custom-metric interface:
 * an object with `get()`).
 *
 * A series is made once per label values (`child`) and the caller keeps the function it gets,
 * so recording does no lookup at all. Label values must be bounded words (see metrics.ts).
 */
import type { Registry } from 'prom-client';

interface Value {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

interface Family {
  name: string;
  help: string;
  labelNames: readonly string[];
}

function register(registry: Registry, family: Family, type: 'counter' | 'histogram', values: () => Value[]): void {
  const metric = {
    name: family.name,
    help: family.help,
    type,
    aggregator: 'sum' as const,
    get: async () => ({ name: family.name, help: family.help, type, aggregator: 'sum' as const, values: values() }),
    reset: () => {},
  };
  registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
}

const labelsOf = (names: readonly string[], values: readonly string[]) => Object.fromEntries(names.map((n, i) => [n, values[i] ?? '']));

/** A counter family: `child(values…)` gives the function that adds one to that series. */
export function leanCounter(registry: Registry, family: Family): (...values: string[]) => () => void {
  const series = new Map<string, { labels: Record<string, string>; value: number }>();
  register(registry, family, 'counter', () => [...series.values()].map((s) => ({ labels: s.labels, value: s.value })));
  return (...values) => {
    const key = values.join('\u0000');
    let s = series.get(key);
    if (!s) series.set(key, (s = { labels: labelsOf(family.labelNames, values), value: 0 }));
    const one = s;
    return () => void one.value++;
  };
}

/** A histogram family (seconds): `child(values…)` gives the function that observes a value in that series. */
export function leanHistogram(registry: Registry, family: Family & { buckets: readonly number[] }): (...values: string[]) => (seconds: number) => void {
  const { buckets } = family;
  type Series = { labels: Record<string, string>; counts: number[]; sum: number; count: number };
  const series = new Map<string, Series>();
  register(registry, family, 'histogram', () => {
    const out: Value[] = [];
    for (const s of series.values()) {
      let cumulative = 0;
      buckets.forEach((le, i) => {
        cumulative += s.counts[i]!;
        out.push({ metricName: `${family.name}_bucket`, labels: { ...s.labels, le }, value: cumulative });
      });
      out.push({ metricName: `${family.name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
      out.push({ metricName: `${family.name}_sum`, labels: s.labels, value: s.sum });
      out.push({ metricName: `${family.name}_count`, labels: s.labels, value: s.count });
    }
    return out;
  });
  return (...values) => {
    const key = values.join('\u0000');
    let s = series.get(key);
    if (!s) series.set(key, (s = { labels: labelsOf(family.labelNames, values), counts: buckets.map(() => 0), sum: 0, count: 0 }));
    const one = s;
    const n = buckets.length;
    return (seconds) => {
      let i = 0;
      while (i < n && seconds > buckets[i]!) i++;
      if (i < n) one.counts[i]!++;
      one.sum += seconds;
      one.count++;
    };
  };
}
