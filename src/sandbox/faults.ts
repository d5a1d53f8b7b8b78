/**
 * Injected faults for /v2 requests: latency, dropped connections, raw bodies and error
 * answers, each for a number of matching requests. Lets tests exercise the client's
 * retries, Retry-After handling (provider notes: 429 RATE_LIMITED) and broken responses.
 */
import type { ServerResponse } from 'node:http';
import { ApiError, errorReply, sendRaw, sendReply } from './http.js';
import type { Fault } from './types.js';

/** Default code per status when a fault gives only a status (provider notes table). */
const CODE_FOR_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  402: 'OVERDUE_INVOICE',
  403: 'ACCOUNT_BANNED',
  404: 'NOT_FOUND',
  409: 'SERVER_STATUS_CONFLICT',
  422: 'VALIDATION_ERROR',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/**
 * Default status per code when a fault gives only a code. Any other code is a business refusal:
 * 422 (spec "Errors": the reserve refusals are 422; provider notes: "422 VALIDATION_ERROR and
 * business refusals").
 */
const STATUS_FOR_CODE: Record<string, number> = {
  UNAUTHENTICATED: 401,
  INVALID_TOKEN: 401,
  OVERDUE_INVOICE: 402,
  ACCOUNT_BANNED: 403,
  IP_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  SERVER_STATUS_CONFLICT: 409,
  RATE_LIMITED: 429,
  HYPERVISOR_SYNC_FAILED: 502,
  BAD_REQUEST: 400,
  INTERNAL_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
};
const REFUSAL_STATUS = 422;

interface ActiveFault {
  fault: Fault;
  left: number;
}

export class FaultRegistry {
  private faults: ActiveFault[] = [];

  add(fault: Fault): void {
    const times = fault.times ?? 1;
    if (times > 0) this.faults.push({ fault, left: times });
  }

  clear(): void {
    this.faults = [];
  }

  get size(): number {
    return this.faults.length;
  }

  /** The first matching fault with uses left; consumes one use. */
  take(method: string, path: string): Fault | undefined {
    const hit = this.faults.find((f) => matches(f.fault, method, path));
    if (!hit) return undefined;
    hit.left -= 1;
    if (hit.left <= 0) this.faults = this.faults.filter((f) => f !== hit);
    return hit.fault;
  }
}

function matches(f: Fault, method: string, path: string): boolean {
  if (f.method !== undefined && f.method.toUpperCase() !== method) return false;
  if (f.path === undefined) return true;
  if (typeof f.path === 'string') return f.path === path;
  f.path.lastIndex = 0; // a /g or /y RegExp keeps state between tests
  return f.path.test(path);
}

/** Whether the fault answers the request itself (otherwise it only adds latency). */
export function answers(f: Fault): boolean {
  return f.destroySocket === true || f.rawBody !== undefined || f.status !== undefined || f.code !== undefined;
}

export function applyFault(f: Fault, res: ServerResponse): void {
  const headers: Record<string, string> = {};
  if (f.retryAfter !== undefined) headers['retry-after'] = String(f.retryAfter);
  if (f.destroySocket) {
    res.socket?.destroy();
    return;
  }
  if (f.rawBody !== undefined) {
    sendRaw(res, f.status ?? 200, f.rawBody, headers);
    return;
  }
  const status = f.status ?? (f.code === undefined ? 500 : Object.hasOwn(STATUS_FOR_CODE, f.code) ? STATUS_FOR_CODE[f.code]! : REFUSAL_STATUS);
  const code = f.code ?? CODE_FOR_STATUS[status] ?? 'INTERNAL_ERROR';
  const message = f.message ?? `Injected fault: ${code}.`;
  sendReply(res, errorReply(new ApiError(status, code, message, f.details, headers)));
}

/** A fault posted over HTTP: `path` as a string, '^…' meaning a RegExp. */
export function faultFromJson(body: unknown): Fault | string {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'body must be a JSON object';
  const raw = body as Record<string, unknown>;
  const f: Fault = {};
  if (typeof raw.method === 'string') f.method = raw.method;
  if (typeof raw.path === 'string') {
    try {
      f.path = raw.path.startsWith('^') ? new RegExp(raw.path) : raw.path;
    } catch {
      return 'path is not a valid RegExp';
    }
  }
  if (raw.times === 'Infinity' || raw.times === null) f.times = Infinity;
  else if (typeof raw.times === 'number') f.times = raw.times;
  if (typeof raw.status === 'number') f.status = raw.status;
  if (typeof raw.code === 'string') f.code = raw.code;
  if (typeof raw.message === 'string') f.message = raw.message;
  if (raw.details !== null && typeof raw.details === 'object' && !Array.isArray(raw.details)) {
    f.details = raw.details as Record<string, unknown>;
  }
  if (typeof raw.retryAfter === 'string' || typeof raw.retryAfter === 'number') f.retryAfter = raw.retryAfter;
  if (typeof raw.latencyMs === 'number') f.latencyMs = raw.latencyMs;
  if (typeof raw.rawBody === 'string') f.rawBody = raw.rawBody;
  if (raw.destroySocket === true) f.destroySocket = true;
  return f;
}
