/**
 * Background work (worker builds, installs/reinstalls, backups) is computed lazily from the
 * clock: every request first settles whatever has become due. No timers, so a manual clock
 * drives every lifecycle (spec "Events": asynchronous work is observed by polling).
 */
import type { SandboxState, ServerState, WorkerState } from './state.js';

/** Share of the build time a worker spends `queued` before `in_progress` (brief). */
export const QUEUED_SHARE = 0.2;
/** A backup completes this long after it was requested. */
export const BACKUP_MS = 30_000;

/** Repositories whose URL contains "fail" end their build in `failed` (sandbox convention). */
export const buildFails = (repository: string): boolean => /fail/i.test(repository);

export function settle(state: SandboxState, now: number): void {
  for (const w of state.workers) settleWorker(w, now);
  for (const s of state.servers) settleServer(s, now);
  for (const list of Object.values(state.backups)) {
    for (const b of list) {
      if (b.completedAt === null && now >= b.completesAt) {
        b.completedAt = b.completesAt;
        b.isSuccessful = true;
        b.size = b.finalSize;
      }
    }
  }
}

/** Spec "Worker status": `pending` → `active` once the background build completes. */
function settleWorker(w: WorkerState, now: number): void {
  const build = w.build;
  if (!build) return;
  const inProgressAt = build.startedAt + Math.round(build.buildMs * QUEUED_SHARE);
  const doneAt = build.startedAt + build.buildMs;
  if (now >= doneAt) {
    w.build = null;
    w.updatedAt = doneAt;
    if (build.fails) {
      w.status = 'failed';
      w.lastDeploymentStatus = 'failed';
      w.lastError = 'Build failed: build command exited with code 1 (npm ERR! Missing script: "build")';
      w.runtimeStatus = null;
      w.provisioned = false;
    } else {
      w.status = 'active';
      w.lastDeploymentStatus = 'finished';
      w.runtimeStatus = 'running';
      w.runtimeStatusAt = doneAt;
      w.provisioned = true;
    }
  } else if (now >= inProgressAt && w.lastDeploymentStatus === 'queued') {
    w.lastDeploymentStatus = 'in_progress';
    w.updatedAt = inProgressAt;
  }
}

/** Spec "Credentials password_status": `generating` until the install completes, then `ready`. */
function settleServer(s: ServerState, now: number): void {
  if (s.busyUntil === null || now < s.busyUntil) return;
  const doneAt = s.busyUntil;
  s.busyUntil = null;
  s.status = null;
  s.rootPassword = s.pendingPassword ?? s.rootPassword;
  s.pendingPassword = null;
  s.powerState = 'running';
  if (s.powerTask) {
    s.powerTask = { ...s.powerTask, status: 'OK', state: 'running', message: 'Task finished', updatedAt: doneAt };
  }
}
