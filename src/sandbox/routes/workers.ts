/** Workers (spec "Workers"; "Worker status" states). */
import { created, notFound, ok, refusal } from '../http.js';
import { newUuid } from '../ids.js';
import { buildFails } from '../lifecycle.js';
import type { Route, RouteContext } from '../router.js';
import type { WorkerState } from '../state.js';
import { FieldErrors, bodyObject, bool, int, oneOf, str } from '../validate.js';
import { WORKER_LIMITS, workerLocationView, workerView } from '../views.js';

const GIT_SOURCES = ['public', 'hosted_git', 'template', 'database'] as const;
const BUILD_PACKS = ['auto_detect', 'static', 'container_file'] as const;
/** A URL a git host can clone: http(s) or scp-like `git@host:owner/repo`. */
const GIT_URL = /^(https?:\/\/[^\s/]+\/\S+|git@[^\s:]+:\S+)$/i;

function requirements(ctx: RouteContext) {
  const { account, workers } = ctx.state;
  return ok({
    minimum_credit: account.minimumWorkerCredit,
    credit: account.balance,
    sufficient: account.balance >= account.minimumWorkerCredit,
    workers_used: workers.length,
    workers_allowed: account.workersAllowed,
    limits: WORKER_LIMITS,
  });
}

function deploy(ctx: RouteContext) {
  const { state } = ctx;
  const b = bodyObject(ctx.body);
  const errs = new FieldErrors();
  const name = str(b, 'name', errs, { required: true, max: 191 });
  const locationId = int(b, 'location_id', errs, { required: true, min: 1 });
  const gitSource = oneOf(b, 'git_source', errs, GIT_SOURCES) ?? 'public';
  const repo = str(b, 'git_repository', errs, { required: true, max: 500 });
  const branch = str(b, 'git_branch', errs, { max: 191 });
  const buildPack = oneOf(b, 'build_pack', errs, BUILD_PACKS) ?? 'auto_detect';
  const ports = str(b, 'ports_exposes', errs, { max: 64 });
  const baseDir = str(b, 'base_directory', errs, { max: 255 });
  const publishDir = str(b, 'publish_directory', errs, { max: 255 });
  const install = str(b, 'install_command', errs, { max: 1000 });
  const build = str(b, 'build_command', errs, { max: 1000 });
  const start = str(b, 'start_command', errs, { max: 1000 });
  const isSpa = bool(b, 'is_spa', errs) ?? false;

  const location = locationId === undefined ? undefined : state.locations.find((l) => l.id === locationId && l.workerLocation);
  if (locationId !== undefined && !location) errs.add('location_id', 'The selected location id is invalid.');
  if (repo !== undefined && !errs.has('git_source')) {
    if (gitSource === 'public' || gitSource === 'hosted_git') {
      if (!GIT_URL.test(repo.trim())) errs.add('git_repository', 'The git repository must be an http(s) or git@ URL.');
    } else {
      const tpl = state.workerTemplates.find((t) => t.id === repo && t.type === gitSource);
      if (!tpl) errs.add('git_repository', `The git repository must be the id of a ${gitSource} from GET /workers/templates.`);
    }
  }
  errs.throwIfAny();
  if (name === undefined || repo === undefined || !location) throw new Error('unreachable: validated');

  // Refusals in the brief's order.
  const { account } = state;
  if (!account.workersEnabled) throw refusal('WORKERS_DISABLED', 'Worker sales are currently disabled.');
  if (state.workers.length >= account.workersAllowed) {
    throw refusal('WORKER_LIMIT_REACHED', `The account level allows ${account.workersAllowed} workers and ${state.workers.length} exist.`, {
      workers_used: state.workers.length,
      workers_allowed: account.workersAllowed,
    });
  }
  if (account.balance < account.minimumWorkerCredit) {
    throw refusal('INSUFFICIENT_BALANCE', `The balance (${account.balance}) is below the minimum credit of ${account.minimumWorkerCredit} needed to deploy a worker.`, {
      credit: account.balance,
      minimum_credit: account.minimumWorkerCredit,
    });
  }
  if (location.workersOutOfStock) {
    throw refusal('LOCATION_UNAVAILABLE', `Location ${location.shortCode} is not available for workers right now.`, { location_id: location.id });
  }
  if (gitSource === 'hosted_git' && !account.gitHostConnected) {
    throw refusal('GIT_HOST_NOT_CONNECTED', 'No git hosting account is linked; link one in the panel to deploy private repositories.');
  }

  const w: WorkerState = {
    uuid: newUuid(),
    name: name.trim(),
    locationId: location.id,
    gitSource,
    gitRepository: repo,
    gitBranch: branch ?? 'main',
    buildPack,
    portsExposes: ports ?? null,
    baseDirectory: baseDir ?? '/',
    publishDirectory: publishDir ?? null,
    installCommand: install ?? null,
    buildCommand: build ?? null,
    startCommand: start ?? null,
    isSpa,
    status: 'pending',
    runtimeStatus: null,
    runtimeStatusAt: null,
    provisioned: false,
    lastDeploymentStatus: 'queued',
    lastDeploymentAt: ctx.now,
    lastError: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    build: { startedAt: ctx.now, buildMs: ctx.buildMs, fails: buildFails(repo) },
  };
  state.workers.push(w);
  return created(workerView(state, w));
}

function status(ctx: RouteContext) {
  const uuid = (ctx.params.worker ?? '').toLowerCase();
  const w = ctx.state.workers.find((x) => x.uuid === uuid);
  if (!w) throw notFound('Worker');
  return ok(workerView(ctx.state, w));
}

export const workerRoutes: Route[] = [
  { method: 'GET', path: '/workers/deploy-requirements', handle: requirements },
  { method: 'POST', path: '/workers', handle: deploy },
  {
    method: 'GET',
    path: '/workers/locations',
    handle: (ctx) => ok(ctx.state.locations.filter((l) => l.workerLocation).map(workerLocationView)),
  },
  { method: 'GET', path: '/workers/templates', handle: (ctx) => ok(ctx.state.workerTemplates) },
  { method: 'GET', path: '/workers/:worker/status', handle: status },
];
