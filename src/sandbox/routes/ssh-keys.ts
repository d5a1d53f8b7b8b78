/** SSH keys (spec "SSH keys"; provider notes for the list shape). Not paginated. */
import { noContent, notFound, ok } from '../http.js';
import type { Route, RouteContext } from '../router.js';
import { idParam } from '../validate.js';

function remove(ctx: RouteContext) {
  const id = idParam(ctx.params.id);
  const { state } = ctx;
  const i = id === undefined ? -1 : state.sshKeys.findIndex((k) => k.id === id);
  if (i === -1) throw notFound('SSH key');
  state.sshKeys.splice(i, 1);
  return noContent();
}

export const sshKeyRoutes: Route[] = [
  { method: 'GET', path: '/ssh-keys', handle: (ctx) => ok(ctx.state.sshKeys) },
  { method: 'DELETE', path: '/ssh-keys/:id', handle: remove },
];
