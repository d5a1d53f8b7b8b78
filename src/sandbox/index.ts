/**
 * A faithful, stateful stand-in for the Cloud API v2 server (shared/spec/cloud-api-v2.md,
 * provider-notes.md) for tests, demos and benchmarks. The request pipeline is described in
 * sandbox.ts, the control endpoints in control.ts, the seeded account in seed.ts.
 */
export { createSandbox } from './sandbox.js';
export { SEED_SERVERS, SEED_WORKER_UUID, seedNames, seedSummary } from './seed.js';
export type { PowerChange, WorkerChange } from './outside-changes.js';
export type { Fault, ListeningSandbox, RecordedRequest, Sandbox, SandboxOptions } from './types.js';
export type * from './state.js';
