/** The sandbox's public contract (others code against it: keep it stable). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../clock.js';
import type { ServerStatus, Worker } from '../cloud-api/schemas.js';
import type { PowerChange, WorkerChange } from './outside-changes.js';
import type { SandboxState } from './state.js';

export interface SandboxOptions {
  /** Bearer token accepted; default: random 32 hex characters. */
  token?: string;
  /** Default systemClock; lifecycles are computed lazily from clock.now() on each request. */
  clock?: Clock;
  /** How added latency is waited out: real time by default; a test passes its own to see the waits without timing them. */
  wait?: (ms: number) => Promise<unknown>;
  /** Page size of paginated lists, default 15. */
  perPage?: number;
  /** Worker build time, default 120_000. */
  buildMs?: number;
  /** Reinstall time, default 90_000. */
  reinstallMs?: number;
  /** Default true: the realistic seeded account; false: empty account with one location/subnet. */
  seed?: boolean;
  /** Emit plans with `vcpus`/`ram` instead of `cpu`/`memory` (provider-notes variant). */
  legacyPlanFields?: boolean;
}

export interface RecordedRequest {
  method: string;
  /** Exactly as received on the wire incl. %-encoding, without query. */
  rawPath: string;
  /** After /v2, decoded per segment, joined. */
  path: string;
  /** Decoded segments after /v2. */
  segments: string[];
  query: Record<string, string>;
  /** Parsed JSON or undefined. */
  body: unknown;
  /** The User-Agent header, to tell callers apart (the bot's watcher names itself). */
  userAgent: string | undefined;
  /** The bearer token presented (tests check that an account's token reaches only its own cloud). */
  token: string | undefined;
  /** Clock ms. */
  at: number;
}

export interface Fault {
  method?: string;
  /** Matched against the decoded path after /v2, e.g. '/servers/101/status', or a RegExp. */
  path?: string | RegExp;
  /** Default 1; Infinity allowed. */
  times?: number;
  status?: number;
  code?: string;
  message?: string;
  details?: Record<string, unknown>;
  /** Sets the Retry-After header. */
  retryAfter?: string | number;
  /** Real-time delay before answering (network simulation, uses setTimeout). */
  latencyMs?: number;
  /** Answer this exact body (e.g. invalid JSON) with status (default 200). */
  rawBody?: string;
  /** Drop the connection without answering. */
  destroySocket?: boolean;
}

export interface ListeningSandbox {
  /** http://127.0.0.1:PORT/v2 */
  baseUrl: string;
  port: number;
  /** Stops listening and destroys keep-alive sockets. */
  close(): Promise<void>;
}

export interface Sandbox {
  readonly token: string;
  /** Mutable: tests tweak account knobs directly. */
  readonly state: SandboxState;
  /** Every request under /v2 (not control endpoints), in order. */
  readonly requests: RecordedRequest[];
  /** node:http listener. */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  addFault(f: Fault): void;
  clearFaults(): void;
  /** Added real-time latency for every /v2 request. */
  setLatency(ms: number): void;
  /** The next n firewall syncs fail with 502 HYPERVISOR_SYNC_FAILED after saving the change. */
  failNextSyncs(n: number): void;
  /**
   * Powers a server (id, uuid or short uuid) on or off as if from the provider's panel; its
   * status then reports `running` or `stopped`. Throws the sandbox's ApiError (404, 409).
   */
  powerServer(server: string | number, state: PowerChange): ServerStatus;
  /** Moves a worker outside the bot: a new build starts, or it fails / is up now. */
  changeWorker(uuid: string, change: WorkerChange): Worker;
  /** Default port 0, host 127.0.0.1. */
  listen(port?: number, host?: string): Promise<ListeningSandbox>;
}
