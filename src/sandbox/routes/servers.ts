/** Servers: reinstall, rename, status, credentials (spec "Servers"; "Server application status"). */
import { ApiError, notFound, ok, refusal } from '../http.js';
import { generatePassword } from '../ids.js';
import type { Route, RouteContext } from '../router.js';
import { BUSY_STATUSES, findServer } from '../state.js';
import type { ServerState } from '../state.js';
import { FieldErrors, bodyObject, str } from '../validate.js';
import { credentialsView, serverStatusView, serverView } from '../views.js';

/** `{server}` by id, uuid_short or uuid; a malformed identifier is simply not found. */
export function serverParam(ctx: RouteContext): ServerState {
  const s = findServer(ctx.state, ctx.params.server ?? '');
  if (!s) throw notFound('Server');
  return s;
}

/** 409 while installing/reinstalling/restoring (provider notes: 409 SERVER_STATUS_CONFLICT). */
export function assertFree(s: ServerState, action: string): void {
  if (s.status !== null && BUSY_STATUSES.includes(s.status)) {
    throw new ApiError(409, 'SERVER_STATUS_CONFLICT', `Cannot ${action} while the server is ${s.status}.`, { status: s.status });
  }
}

function reinstall(ctx: RouteContext) {
  const { state } = ctx;
  const s = serverParam(ctx);
  const b = bodyObject(ctx.body);
  const errs = new FieldErrors();
  const slug = str(b, 'template_slug', errs, { required: true, max: 191 });
  // The spec sets a minimum only (cloud-api-v2.md, Limits: reinstall `password`); no maximum is invented here.
  const password = str(b, 'password', errs, { min: 8 });
  const keys = b.ssh_key_ids;
  if (keys !== undefined && keys !== null) {
    if (!Array.isArray(keys)) errs.add('ssh_key_ids', 'The ssh key ids field must be an array.');
    else if (keys.length < 1 || keys.length > 20) errs.add('ssh_key_ids', 'The ssh key ids field must have between 1 and 20 items.');
    else {
      for (const id of keys as unknown[]) {
        if (typeof id !== 'number' || !Number.isInteger(id)) errs.add('ssh_key_ids', 'Each ssh key id must be an integer.');
        else if (!state.sshKeys.some((k) => k.id === id)) errs.add('ssh_key_ids', `The SSH key ${id} does not exist.`);
      }
    }
  }
  errs.throwIfAny();
  if (slug === undefined) throw new Error('unreachable: validated');
  if (!state.osTemplates.some((t) => t.slug === slug)) {
    throw refusal('TEMPLATE_NOT_FOUND', `The OS template "${slug}" does not exist.`, { template_slug: slug });
  }
  assertFree(s, 'reinstall');

  // Spec "Server application status": reinstalling; password returned now, ready once done.
  const pw = password ?? generatePassword();
  s.status = 'reinstalling';
  s.busyUntil = ctx.now + ctx.reinstallMs;
  s.osTemplate = slug;
  s.username = slug.startsWith('windows') ? 'Administrator' : 'root';
  s.rootPassword = null;
  s.pendingPassword = pw;
  s.powerState = 'running';
  s.powerTask = {
    action: 'reinstall',
    status: 'running',
    state: 'running',
    upid: `UPID:node-${s.nodeId}:${ctx.now.toString(16).toUpperCase()}:reinstall`,
    message: `Reinstalling ${slug}`,
    updatedAt: ctx.now,
  };
  return ok({ status: 'reinstalling', password: pw });
}

function rename(ctx: RouteContext) {
  const s = serverParam(ctx);
  const errs = new FieldErrors();
  const name = str(bodyObject(ctx.body), 'name', errs, { required: true, max: 40 });
  errs.throwIfAny();
  if (name === undefined) throw new Error('unreachable: validated');
  s.name = name.trim();
  return ok(serverView(ctx.state, s));
}

export const serverRoutes: Route[] = [
  { method: 'POST', path: '/servers/:server/reinstall', handle: reinstall },
  { method: 'PATCH', path: '/servers/:server/rename', handle: rename },
  { method: 'GET', path: '/servers/:server/status', handle: (ctx) => ok(serverStatusView(serverParam(ctx))) },
  { method: 'GET', path: '/servers/:server/credentials', handle: (ctx) => ok(credentialsView(serverParam(ctx))) },
];
