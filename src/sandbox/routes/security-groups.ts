/** Security groups and firewall rules (spec "Security groups"; "What the service does" 6). */
import type { FirewallRule } from '../../cloud-api/schemas.js';
import { addressSpecFamily, KNOWN_PROTOCOLS, PORT_PROTOCOLS, portSpecProblem } from '../firewall-syntax.js';
import type { Family } from '../firewall-syntax.js';
import { created, noContent, notFound, ok, refusal } from '../http.js';
import type { Route, RouteContext } from '../router.js';
import type { SecurityGroupState } from '../state.js';
import { FieldErrors, bodyObject, idParam, int, oneOf, str } from '../validate.js';
import type { Body } from '../validate.js';
import { securityGroupView } from '../views.js';

function groupParam(ctx: RouteContext): SecurityGroupState {
  const id = idParam(ctx.params.id);
  const g = id === undefined ? undefined : ctx.state.securityGroups.find((x) => x.id === id);
  if (!g) throw notFound('Security group');
  return g;
}

/** An optional address field: null/absent/empty → null (unrestricted). */
function addressField(b: Body, field: string, errs: FieldErrors): { value: string | null; family?: Family } {
  const v = str(b, field, errs, { max: 255 });
  if (v === undefined || v.trim() === '') return { value: null };
  const family = addressSpecFamily(v);
  if (!family) {
    errs.add(field, `The ${field} must be a literal IPv4/IPv6 address, a CIDR or a range "a-b".`);
    return { value: null };
  }
  return { value: v, family };
}

function portField(b: Body, field: string, errs: FieldErrors, portCapable: boolean | undefined): string | null {
  const v = str(b, field, errs, { max: 50 });
  if (v === undefined || v.trim() === '') return null;
  if (portCapable === false) {
    errs.add(field, `Ports are only allowed with a port-capable protocol (${PORT_PROTOCOLS.join(', ')}).`);
    return null;
  }
  const problem = portSpecProblem(v);
  if (problem) errs.add(field, problem);
  return v;
}

function addRule(ctx: RouteContext) {
  const g = groupParam(ctx);
  const b = bodyObject(ctx.body);
  const errs = new FieldErrors();
  const type = oneOf(b, 'type', errs, ['inbound', 'outbound'], true);
  const action = oneOf(b, 'action', errs, ['ACCEPT', 'REJECT', 'DROP'], true);
  const protocol = str(b, 'protocol', errs, { required: true, max: 20 });
  let portCapable: boolean | undefined;
  if (protocol !== undefined) {
    const p = protocol.toLowerCase();
    if (!(KNOWN_PROTOCOLS as readonly string[]).includes(p)) {
      errs.add('protocol', `The protocol must be one of ${KNOWN_PROTOCOLS.join(', ')}.`);
    } else {
      portCapable = (PORT_PROTOCOLS as readonly string[]).includes(p);
    }
  }
  const source = addressField(b, 'source', errs);
  const destination = addressField(b, 'destination', errs);
  if (source.family && destination.family && source.family !== destination.family) {
    errs.add('destination', 'The source and destination must be of the same IP family.');
  }
  const sourcePort = portField(b, 'source_port', errs, portCapable);
  const destinationPort = portField(b, 'destination_port', errs, portCapable);
  const comment = str(b, 'comment', errs, { max: 255 });
  const priority = int(b, 'priority', errs, { min: 0 }) ?? 0;
  errs.throwIfAny();
  if (!type || !action || protocol === undefined) throw new Error('unreachable: validated');

  const rule: FirewallRule = {
    id: ctx.state.nextIds.rule++,
    type,
    action,
    protocol: protocol.toLowerCase(),
    source: source.value,
    destination: destination.value,
    source_port: sourcePort,
    destination_port: destinationPort,
    comment: comment ?? null,
    priority,
  };
  // Saved first, then synchronized: a sync failure leaves the rule saved (spec item 6).
  g.rules.push(rule);
  ctx.sync(g.id);
  return created(rule);
}

function deleteRule(ctx: RouteContext) {
  const g = groupParam(ctx);
  const id = idParam(ctx.params.rule);
  const rule = id === undefined ? undefined : g.rules.find((r) => r.id === id);
  if (!rule) throw notFound('Firewall rule');
  g.rules = g.rules.filter((r) => r !== rule);
  ctx.sync(g.id);
  return noContent();
}

function attach(ctx: RouteContext) {
  const g = groupParam(ctx);
  const errs = new FieldErrors();
  const ident = str(bodyObject(ctx.body), 'server_uuid', errs, { required: true, max: 36 });
  errs.throwIfAny();
  const lower = (ident ?? '').toLowerCase();
  const s = ctx.state.servers.find((x) => x.uuid === lower || x.uuidShort === lower);
  if (!s) throw notFound('Server');
  if (g.serverIds.includes(s.id)) {
    throw refusal('ALREADY_ATTACHED', `${s.name} is already attached to security group ${g.name}.`, { server_uuid: s.uuid });
  }
  g.serverIds.push(s.id);
  ctx.sync(g.id);
  return ok({ status: 'attached' });
}

function deploy(ctx: RouteContext) {
  const g = groupParam(ctx);
  ctx.sync(g.id);
  return ok({ status: 'deployed' });
}

export const securityGroupRoutes: Route[] = [
  { method: 'GET', path: '/security-groups/:id', handle: (ctx) => ok(securityGroupView(ctx.state, groupParam(ctx))) },
  { method: 'POST', path: '/security-groups/:id/rules', handle: addRule },
  { method: 'DELETE', path: '/security-groups/:id/rules/:rule', handle: deleteRule },
  { method: 'POST', path: '/security-groups/:id/servers/attach', handle: attach },
  { method: 'POST', path: '/security-groups/:id/deploy', handle: deploy },
];
