/**
 * Route table for /v2: patterns like `/servers/:server/ips/:address` matched on decoded
 * segments. A path that matches a pattern under another method answers 405 (brief); a path
 * matching nothing answers 404 NOT_FOUND.
 */
import { ApiError } from './http.js';
import type { Reply } from './http.js';
import type { SandboxState } from './state.js';

/** What handlers may use besides the request itself. */
export interface RouteEnv {
  state: SandboxState;
  /** Clock ms of this request (after settling lifecycles). */
  now: number;
  perPage: number;
  buildMs: number;
  reinstallMs: number;
  legacyPlanFields: boolean;
  /** Synchronizes a security group to its nodes; throws 502 when a failure is pending. */
  sync(groupId: number): void;
}

export interface RouteContext extends RouteEnv {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}

export interface Route {
  method: string;
  path: string;
  handle(ctx: RouteContext): Reply;
}

export type Match =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'method'; allow: string[] }
  | { kind: 'none' };

function matchPattern(pattern: string, segments: string[]): Record<string, string> | undefined {
  const parts = pattern.split('/').filter(Boolean);
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] ?? '';
    const s = segments[i] ?? '';
    if (p.startsWith(':')) {
      if (s === '') return undefined;
      params[p.slice(1)] = s;
    } else if (p !== s) {
      return undefined;
    }
  }
  return params;
}

export function matchRoute(routes: readonly Route[], method: string, segments: string[]): Match {
  const allow: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.path, segments);
    if (!params) continue;
    if (route.method === method) return { kind: 'route', route, params };
    allow.push(route.method);
  }
  return allow.length > 0 ? { kind: 'method', allow } : { kind: 'none' };
}

export function dispatch(routes: readonly Route[], method: string, segments: string[], base: Omit<RouteContext, 'params'>): Reply {
  const m = matchRoute(routes, method, segments);
  if (m.kind === 'none') throw new ApiError(404, 'NOT_FOUND', 'The requested resource was not found.');
  if (m.kind === 'method') {
    throw new ApiError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed here; use ${m.allow.join(', ')}.`, undefined, {
      allow: m.allow.join(', '),
    });
  }
  return m.route.handle({ ...base, params: m.params });
}
