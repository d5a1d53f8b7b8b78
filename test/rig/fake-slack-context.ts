/** What a fake Web API method handler gets, and how it answers. */
import type { BlockKitViolation } from './block-kit-limits.js';
import type { FakeSlackModel } from './fake-slack-model.js';
import type { JsonObject } from './json.js';

export type SlackResponse = JsonObject & { ok: boolean };

export interface Identity {
  teamId: string;
  teamDomain: string;
  botUserId: string;
  botId: string;
  appId: string;
}

export interface MethodContext {
  model: FakeSlackModel;
  identity: Identity;
  now(): number;
  /** The next message ts (strictly increasing). */
  nextTs(): string;
  /** Checks a Block Kit payload; violations are recorded on the fake and returned. */
  check(payload: unknown): BlockKitViolation[];
  /** ws:// URL of the attached fake Socket Mode server, if any. */
  socketUrl(): string | undefined;
  /** The bot scopes granted (for methods whose scope depends on the channel). */
  scopes: ReadonlySet<string>;
}

export type MethodHandler = (params: Record<string, unknown>, ctx: MethodContext) => SlackResponse;

export function ok(fields: JsonObject = {}): SlackResponse {
  return { ok: true, ...fields };
}

export function fail(error: string, fields: JsonObject = {}): SlackResponse {
  return { ok: false, error, ...fields };
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}
