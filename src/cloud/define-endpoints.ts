/**
 * The parts an endpoint table is made of, and the client a table makes: one method per entry
 * (`'servers.status'` → `cloud.servers.status(server, opts)`), typed from the entry itself, so
 * an endpoint is declared in one place (endpoints.ts) and nowhere else.
 *
 * A method takes the template's segments in template order, then the body (or what the entry's
 * `input` makes the body from), then its options. Segments are validated in template order (the
 * first bad one throws INVALID_IDENTIFIER) and encoded by ids.ts `path` before anything is sent.
 */
import type { z } from 'zod';
import { readData, readListWithMeta, readOptionalData } from './envelope.js';
import type { HttpMethod, Transport, TransportResponse } from './http.js';
import { path, positiveInt } from './ids.js';
import type { PathSegment } from './ids.js';
import { collectList, fetchPage, iteratePages } from './paginate.js';
import type { Page } from '../cloud-api/schemas.js';

/** Per-call options. `signal` aborts the call (and any retry wait). */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface PageQuery extends CallOptions {
  page?: number;
}

/** `{name}` placeholders of a template, as a union of names. */
export type SegmentNames<T extends string> = T extends `${string}{${infer N}}${infer Rest}` ? N | SegmentNames<Rest> : never;
/** The same names as a tuple, in template order (the method's leading arguments). */
type SegmentList<T extends string> = T extends `${string}{${infer N}}${infer Rest}` ? [N, ...SegmentList<Rest>] : [];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Validator = (value: any) => PathSegment;
type Validators<T extends string> = { [K in SegmentNames<T>]: Validator };
/** Validated segments by name, as a reader may need them (the worker status names its uuid). */
export type Segments = Readonly<Record<string, PathSegment>>;

/** How an answer is read. */
export type Reply =
  | { kind: 'one'; read: (res: TransportResponse, segments: Segments) => unknown; expectBody: boolean }
  | { kind: 'list'; item: z.ZodType }
  | { kind: 'pages'; item: z.ZodType; filters: Record<string, string>; all: string };

type One<R> = { kind: 'one'; read: (res: TransportResponse, segments: Segments) => R; expectBody: boolean };
type List<S extends z.ZodType> = { kind: 'list'; item: S };
type Pages<S extends z.ZodType, F extends string, A extends string> = { kind: 'pages'; item: S; filters: Record<F, string>; all: A };

/** `{ data: T }` */
export const data = <S extends z.ZodType>(schema: S): One<z.output<S>> => ({ kind: 'one', read: (res) => readData(res, schema), expectBody: true });
/** `{ data: T }`, or nothing at all (envelope.ts `readOptionalData`). */
export const optionalData = <S extends z.ZodType>(schema: S): One<z.output<S>> => ({
  kind: 'one',
  read: (res) => readOptionalData(res, schema),
  expectBody: true,
});
/** `{ data: T[], meta: M }` */
export const listWithMeta = <S extends z.ZodType, M extends z.ZodType>(item: S, meta: M): One<{ data: z.output<S>[]; meta: z.output<M> }> => ({
  kind: 'one',
  read: (res) => readListWithMeta(res, item, meta),
  expectBody: true,
});
/** Any answer of a read whose shape depends on the segments asked about. */
export const reading = <R>(read: (res: TransportResponse, segments: Segments) => R): One<R> => ({ kind: 'one', read, expectBody: true });
/** 204, or a 200 with any body: success, nothing read. */
export const noContent: One<void> = { kind: 'one', read: () => undefined, expectBody: false };
/** A list whose shape is "not shown": every item, whole (paginate.ts `collectList`). */
export const list = <S extends z.ZodType>(item: S): List<S> => ({ kind: 'list', item });
/**
 * A paginated list: the method reads one page (`page`, and each filter: query name → what a bad
 * value is called), and a second method named `all` walks every page.
 */
export const pages = <S extends z.ZodType, const A extends string, const F extends string = never>(
  item: S,
  opts: { all: A; filters?: Record<F, string> },
): Pages<S, F, A> => ({ kind: 'pages', item, filters: opts.filters ?? ({} as Record<F, string>), all: opts.all });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Input = (arg: any) => unknown;

export interface Endpoint<
  T extends string = string,
  V = Record<string, Validator>,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends Reply = Reply,
  I extends Input | undefined = Input | undefined,
> {
  method: HttpMethod;
  template: T;
  /** One validator per `{name}` of the template. */
  segments: V;
  /**
   * What the body may be (requests.ts): it types the body, and the catalog checks user input
   * with the same schema. Not re-checked when sending, so the cloud's own 422 stays reachable.
   */
  body: B;
  /** The method's argument → the body, when the method takes less than the body (rename takes a name). */
  input: I;
  reply: R;
}

export function endpoint<
  const T extends string,
  V extends Validators<T>,
  R extends Reply,
  B extends z.ZodType | undefined = undefined,
  I extends Input | undefined = undefined,
>(method: HttpMethod, template: T, segments: V, reply: R, body?: { schema: B; input?: I }): Endpoint<T, V, B, R, I> {
  return { method, template, segments, body: body?.schema as B, input: body?.input as I, reply };
}

type ArgOf<F> = F extends (value: infer P) => PathSegment ? P : never;
/** The values a template's segments take, before validation. */
export type ParamsOf<E> = E extends Endpoint<string, infer V> ? { [K in keyof V]: ArgOf<V[K]> } : never;
/** The body an endpoint takes (none when it has no schema). */
export type BodyOf<E> = E extends Endpoint<string, unknown, infer B> ? (B extends z.ZodType ? z.output<B> : undefined) : never;
/** What the method takes for the body: the body itself, or the argument of `input`. */
export type InputOf<E> = E extends Endpoint<string, unknown, z.ZodType | undefined, Reply, infer I> ? (I extends (arg: infer A) => unknown ? A : BodyOf<E>) : never;
type InputArgs<E> = BodyOf<E> extends undefined ? [] : [InputOf<E>];
type ArgsFor<L, V> = L extends [infer N, ...infer Rest] ? [N extends keyof V ? ArgOf<V[N]> : never, ...ArgsFor<Rest, V>] : [];
/** The segments' values, in template order. */
type Positional<E> = E extends Endpoint<infer T, infer V> ? ArgsFor<SegmentList<T>, V> : never;
type Filters<R> = R extends Pages<z.ZodType, infer F, string> ? Partial<Record<F, number>> : never;

type MethodOf<E> = E extends { reply: infer R }
  ? R extends One<infer Out>
    ? (...args: [...Positional<E>, ...InputArgs<E>, opts?: CallOptions]) => Promise<Out>
    : R extends List<infer S>
      ? (...args: [...Positional<E>, opts?: CallOptions]) => Promise<z.output<S>[]>
      : R extends Pages<infer S, string, string>
        ? (...args: [...Positional<E>, query?: PageQuery & Filters<R>]) => Promise<Page<z.output<S>>>
        : never
  : never;
type AllOf<E> = E extends { reply: Pages<infer S, string, string> }
  ? (...args: [...Positional<E>, query?: CallOptions & Filters<E['reply']>]) => AsyncIterable<z.output<S>>
  : never;
type AllName<E> = E extends { reply: Pages<z.ZodType, string, infer A> } ? A : never;

type GroupOf<K> = K extends `${infer G}.${string}` ? G : never;
/** The client a table makes: `table['servers.status']` → `client.servers.status`. */
export type ClientOf<T extends Record<string, Endpoint>> = {
  [G in GroupOf<keyof T>]: {
    [K in keyof T as K extends `${G}.${infer M}` ? M : never]: MethodOf<T[K]>;
  } & {
    [K in keyof T as K extends `${G}.${string}` ? AllName<T[K]> : never]: AllOf<T[K]>;
  };
};

/** A concrete request: what goes on the wire after the base URL (`/v2`), query aside. */
export interface BuiltRequest {
  method: HttpMethod;
  /** Encoded, relative to the base URL. */
  path: string;
  /** Exactly as serialized (JSON): keys with undefined values left out. */
  body?: Record<string, unknown>;
}

/** `/servers/{server}/ips/{address}` → literal parts and segment names, in order. */
export function splitTemplate(template: string): { literals: string[]; names: string[] } {
  const parts = template.split(/\{([A-Za-z_][A-Za-z0-9_]*)\}/);
  return { literals: parts.filter((_, i) => i % 2 === 0), names: parts.filter((_, i) => i % 2 === 1) };
}

/**
 * The concrete request for an endpoint: segments validated in template order (the first bad
 * one throws INVALID_IDENTIFIER), then the body made from the input, as it will be serialized.
 */
export function requestOf(e: Endpoint, params: Record<string, unknown>, input?: unknown): { request: BuiltRequest; segments: Segments } {
  const { literals, names } = splitTemplate(e.template);
  const validated: Record<string, PathSegment> = {};
  const values = names.map((n) => {
    const validate = (e.segments as Record<string, Validator | undefined>)[n];
    if (!validate) throw new TypeError(`${e.template}: no validator for {${n}}`);
    return (validated[n] = validate(params[n]));
  });
  const strings = Object.assign([...literals], { raw: literals }) as unknown as TemplateStringsArray;
  const request: BuiltRequest = { method: e.method, path: path(strings, ...values) };
  const body = e.input && input !== undefined ? e.input(input) : input;
  // A JSON round trip: what the transport serializes, so what is shown is byte-for-byte what is sent.
  if (body !== undefined) request.body = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  return { request, segments: validated };
}

/** Page and filters, each a positive whole number, checked before anything is sent. */
function queryOf(filters: Record<string, string>, query: Record<string, unknown> | undefined, withPage: boolean): Record<string, number | undefined> {
  const out: Record<string, number | undefined> = {};
  for (const [name, kind] of Object.entries(filters)) {
    const v = query?.[name];
    out[name] = v === undefined ? undefined : positiveInt(v as number, kind);
  }
  if (withPage) out.page = query?.page === undefined ? undefined : positiveInt(query.page as number, 'page number');
  return out;
}

type Method = (...args: unknown[]) => unknown;

/** The methods one entry gives its group (two for a paginated list). */
function methodsOf(e: Endpoint, method: string, transport: Transport): Record<string, Method> {
  const { names } = splitTemplate(e.template);
  // Every request names its template: metrics and traces label by it, never by the concrete path.
  const t: Transport = { send: (req) => transport.send({ ...req, endpoint: e.template }), close: () => transport.close() };
  const split = (args: unknown[]) => ({ params: Object.fromEntries(names.map((n, i) => [n, args[i]])), rest: args.slice(names.length) });
  const r = e.reply;
  if (r.kind === 'one') {
    return {
      [method]: async (...args) => {
        const { params, rest } = split(args);
        const [input, opts] = (e.body === undefined ? [undefined, rest[0]] : rest) as [unknown, CallOptions | undefined];
        const { request, segments } = requestOf(e, params, input);
        const res = await t.send({ ...request, signal: opts?.signal, ...(r.expectBody ? {} : { expectBody: false }) });
        return r.read(res, segments);
      },
    };
  }
  if (r.kind === 'list') {
    return {
      [method]: async (...args) => {
        const { params, rest } = split(args);
        return collectList(t, requestOf(e, params).request.path, r.item, (rest[0] as CallOptions | undefined)?.signal);
      },
    };
  }
  return {
    [method]: async (...args) => {
      const { params, rest } = split(args);
      const p = requestOf(e, params).request.path;
      const query = rest[0] as (PageQuery & Record<string, unknown>) | undefined;
      return fetchPage(t, p, r.item, queryOf(r.filters, query, true), query?.signal);
    },
    [r.all]: async function* (...args: unknown[]) {
      const { params, rest } = split(args);
      const p = requestOf(e, params).request.path;
      const query = rest[0] as (CallOptions & Record<string, unknown>) | undefined;
      const filters = queryOf(r.filters, query, false);
      const shown = Object.entries(filters).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${v}`).join('&');
      const label = `GET ${p}${shown ? `?${shown}` : ''}`;
      yield* iteratePages((page) => fetchPage(t, p, r.item, { ...filters, page }, query?.signal), label);
    },
  };
}

/** The client over `t`, one group per key prefix; `guard` wraps each group (redaction.ts). */
export function clientFrom<T extends Record<string, Endpoint>>(table: T, t: Transport, guard: <G extends object>(group: G) => G = (g) => g): ClientOf<T> {
  const groups: Record<string, Record<string, Method>> = {};
  for (const [name, e] of Object.entries(table)) {
    const [group, method] = name.split('.') as [string, string];
    groups[group] = { ...groups[group], ...methodsOf(e, method, t) };
  }
  return Object.fromEntries(Object.entries(groups).map(([g, methods]) => [g, guard(methods)])) as ClientOf<T>;
}
