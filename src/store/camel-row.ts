/**
 * A row's named columns as a record's camelCase fields (`channel_id` → `channelId`): the
 * columns are listed, so a column a backend adds (PostgreSQL's `seq`) never leaks into a record.
 */
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
export type CamelFields<R, K extends keyof R & string> = { [C in K as Camel<C>]: R[C] };

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

export function camelRow<R extends object, const K extends keyof R & string>(row: R, columns: readonly K[]): CamelFields<R, K> {
  const out: Record<string, unknown> = {};
  for (const c of columns) out[camel(c)] = row[c];
  return out as CamelFields<R, K>;
}

type Snake<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}` : S;
export type SnakeParams<I, K extends keyof I & string> = { [C in K as Snake<C>]: I[C] };

/** `nextPollAt` → `next_poll_at`. */
export const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The reverse, for an INSERT's named parameters: a record's listed fields under their column names. */
export function snakeParams<I extends object, const K extends keyof I & string>(input: I, fields: readonly K[]): SnakeParams<I, K> {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[snake(f)] = input[f];
  return out as SnakeParams<I, K>;
}
