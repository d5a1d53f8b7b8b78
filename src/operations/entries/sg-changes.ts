/**
 * Changes to security groups (spec "Security groups", "Firewall rule"): add and delete a rule,
 * attach a server, redeploy. Every one of them synchronizes the group to its nodes, so each
 * names its group in `syncGroup`: on HYPERVISOR_SYNC_FAILED (saved, not applied) the status
 * message offers "Retry sync", which redeploys and never sends the change again.
 *
 * Decisions:
 * - add-rule takes the rule as typed (aliases such as `in`, `allow`, `deny`) and checks it as a
 *   whole with `validateFirewallRule`; the record keeps the canonical values, so the status
 *   message, `--dry-run` and the request all show what is sent. `--port` is the destination
 *   port (what people mean by "the port"), `--source-port` the source port.
 * - attach takes a uuid or short uuid only: the attach body is `server_uuid`, and the API has
 *   no way to turn a numeric id into a uuid. A numeric id is refused before any request.
 * - delete-rule looks the rule up first (GET /security-groups/{id}) and refuses an unknown one.
 */
import { z } from 'zod';
import { isServerUuid, PositiveIntSchema, serverUuid } from '../../cloud/ids.js';
import { RULE_ACTIONS, RULE_TYPES } from '../../cloud/requests.js';
import type { AddRuleBody } from '../../cloud/requests.js';
import { md, val } from '../../views/mrkdwn.js';
import { ruleText, type RuleLike } from '../../views/sg-views.js';
import { groupArg, seenHint } from '../args.js';
import { defineChange, defineOperation, flag, lookedUpAs, positional } from '../define.js';
import { FIREWALL_LIMITS, FIREWALL_PROTOCOLS, validateFirewallRule } from '../firewall-rule.js';
import type { FirewallRuleField } from '../firewall-rule.js';

/** The fields of a rule kept in a change's facts, to describe it again from the record. */
function ruleFacts(r: RuleLike): RuleLike {
  const { type, action, protocol, source, destination, source_port, destination_port, comment, priority } = r;
  return { type, action, protocol, source, destination, source_port, destination_port, comment, priority };
}

const isRuleLike = (v: unknown): v is RuleLike => typeof v === 'object' && v !== null && 'type' in v && 'action' in v;

// ── sg add-rule ─────────────────────────────────────────────────────────────────────────────

const text = z.string({ error: 'must be text' });

const addRuleArgs = {
  id: groupArg,
  type: flag('DIR', text, 'inbound or outbound (in, out)'),
  action: flag('ACTION', text, 'ACCEPT (allow), REJECT or DROP (deny)'),
  protocol: flag('PROTO', text, `one of ${FIREWALL_PROTOCOLS.join(', ')}`),
  source: flag('ADDR', text.optional(), 'source address, CIDR or range (default: anywhere)'),
  destination: flag('ADDR', text.optional(), 'destination address, CIDR or range (default: anywhere)'),
  'source-port': flag('PORTS', text.optional(), 'source port(s), tcp/udp only, e.g. 1024:65535'),
  port: flag('PORTS', text.optional(), 'destination port(s), tcp/udp only: 443, 80,443 or 8000:8100'),
  comment: flag('TEXT', text.optional(), 'what the rule is for'),
  priority: flag('N', text.optional(), 'lower applies first (default 0)'),
};

type RuleArgs = { [K in Exclude<keyof typeof addRuleArgs, 'id'>]?: string | undefined } & { id: number };

/** Body field → argument, where they differ (validator errors and the cloud's land on the form). */
const BODY_TO_ARG: Partial<Record<FirewallRuleField, string>> = { source_port: 'source-port', destination_port: 'port' };
const argOf = (field: string): string => (BODY_TO_ARG as Record<string, string>)[field] ?? field;

const rawRule = (a: RuleArgs) => ({
  type: a.type,
  action: a.action,
  protocol: a.protocol,
  source: a.source,
  destination: a.destination,
  source_port: a['source-port'],
  destination_port: a.port,
  comment: a.comment,
  priority: a.priority,
});

/**
 * The body for checked arguments. Checked arguments always validate again to the same body;
 * for anything else (never reached: every path checks first) the fields are passed as typed.
 */
export function addRuleBody(a: RuleArgs): AddRuleBody {
  const v = validateFirewallRule(rawRule(a));
  if (v.ok) return v.body;
  return rawRule(a) as unknown as AddRuleBody;
}

export const sgAddRule = defineChange({
  id: 'sg.add-rule',
  summary: 'Add a firewall rule to a security group and apply it to the attached servers',
  args: addRuleArgs,
  run: ({ cloud, signal }, a) => cloud.securityGroups.addRule(a.id, addRuleBody(a), { signal }),
  change: {
    confirm: false,
    check(a) {
      const v = validateFirewallRule(rawRule(a));
      if (!v.ok) return { ok: false, fieldErrors: Object.fromEntries(Object.entries(v.fieldErrors).map(([f, m]) => [argOf(f), m])) };
      const b = v.body;
      return {
        ok: true,
        args: {
          id: a.id,
          type: b.type,
          action: b.action,
          protocol: b.protocol,
          source: b.source ?? undefined,
          destination: b.destination ?? undefined,
          'source-port': b.source_port ?? undefined,
          port: b.destination_port ?? undefined,
          comment: b.comment,
          priority: b.priority === undefined ? undefined : String(b.priority),
        },
      };
    },
    describe: (a) => {
      const v = validateFirewallRule(rawRule(a));
      // A form's intro may describe the group by the name typed (not yet resolved to its id).
      const group = typeof a.id === 'number' ? md`${a.id}` : val(String(a.id));
      return {
        title: v.ok ? md`Add rule to security group ${group}: ${ruleText(v.body)}` : md`Add a firewall rule to security group ${group}`,
        lines: [md`It is saved, then applied to the nodes of every server attached to the group.`],
      };
    },
    bodyToArg: BODY_TO_ARG as Record<string, string>,
    syncGroup: ({ id }) => id,
    outputs: (r, { id }) => ({ rule_id: r.id, security_group: id }),
    summarize: (r, { id }) => ({
      text: md`Rule ${val(`#${r.id}`)} is in security group ${val(id)}: ${ruleText(r)}.`,
    }),
    modal: {
      title: 'Add firewall rule',
      submit: 'Add rule',
      fields: [
        { name: 'type', label: 'Direction', kind: 'select', options: RULE_TYPES.map((t) => ({ value: t, text: t })) },
        {
          name: 'action',
          label: 'Action',
          kind: 'select',
          options: RULE_ACTIONS.map((x) => ({
            value: x,
            text: x === 'ACCEPT' ? 'ACCEPT — let it through' : x === 'REJECT' ? 'REJECT — refuse and tell the sender' : 'DROP — discard silently',
          })),
        },
        { name: 'protocol', label: 'Protocol', kind: 'select', options: FIREWALL_PROTOCOLS.map((p) => ({ value: p, text: p })) },
        { name: 'source', label: 'Source (optional)', kind: 'text', optional: true, maxLength: 255, placeholder: 'anywhere, or 203.0.113.0/24', hint: 'An address, a CIDR or a range a-b. Empty means anywhere.' },
        { name: 'destination', label: 'Destination (optional)', kind: 'text', optional: true, maxLength: 255, placeholder: 'anywhere' },
        { name: 'port', label: 'Destination port (optional)', kind: 'text', optional: true, maxLength: FIREWALL_LIMITS.port, placeholder: '443, 80,443 or 8000:8100', hint: 'tcp and udp only.' },
        { name: 'source-port', label: 'Source port (optional)', kind: 'text', optional: true, maxLength: FIREWALL_LIMITS.port, placeholder: 'any' },
        { name: 'comment', label: 'Comment (optional)', kind: 'text', optional: true, maxLength: FIREWALL_LIMITS.comment },
        { name: 'priority', label: 'Priority (optional)', kind: 'text', optional: true, maxLength: 10, placeholder: '0', hint: 'Lower applies first; default 0.' },
      ],
    },
  },
});

// ── sg delete-rule ──────────────────────────────────────────────────────────────────────────

export const sgDeleteRule = defineOperation({
  id: 'sg.delete-rule',
  summary: 'Delete a firewall rule from a security group and the attached servers',
  tier: 'destroy',
  args: {
    id: groupArg,
    rule: lookedUpAs(positional('rule-id', PositiveIntSchema, 'the rule’s id (see /cloud sg show <id>)'), { what: 'firewall rule', listedBy: '/cloud sg show {id}', lists: 'lists its rules' }),
  },
  run: ({ cloud, signal }, { id, rule }) => cloud.securityGroups.deleteRule(id, rule, { signal }),
  change: {
    confirm: true,
    async precheck({ cloud, signal }, { id, rule }) {
      const group = await cloud.securityGroups.get(id, { signal });
      const found = (group.rules ?? []).find((r) => r.id === rule);
      if (!found) return { refuse: md`Security group ${val(id)} has no rule ${val(`#${rule}`)}. ${val(`/cloud sg show ${id}`)} lists its rules.` };
      return { facts: { rule: ruleFacts(found), group: group.name ?? null, servers: (group.servers ?? []).length } };
    },
    describe: ({ id, rule }, facts) => ({
      title: md`Delete rule #${rule} from security group ${id}${typeof facts.group === 'string' ? md` (${val(facts.group)})` : md``}`,
      lines: [
        ...(isRuleLike(facts.rule) ? [md`The rule: ${ruleText(facts.rule)}.`] : []),
        typeof facts.servers === 'number'
          ? md`It stops applying to the ${facts.servers} attached server${facts.servers === 1 ? md`` : md`s`}; traffic it matched meets the next rules instead.`
          : md`It stops applying to the attached servers; traffic it matched meets the next rules instead.`,
      ],
    }),
    syncGroup: ({ id }) => id,
    summarize: (_r, { id, rule }) => ({ text: md`Rule ${val(`#${rule}`)} is deleted from security group ${val(id)}.` }),
  },
});

// ── sg attach ───────────────────────────────────────────────────────────────────────────────

/** `server_uuid` (spec): a uuid or short uuid; a numeric id is refused with where to find the uuid. */
const attachServer = z.string().transform((value, ctx): string => {
  if (/^\d+$/.test(value) && !isServerUuid(value)) {
    ctx.addIssue({
      code: 'custom',
      message: `${value} looks like a numeric server id, which cannot be attached: the API takes the server’s uuid. Use its uuid or its 8-character short uuid (the uuid’s first 8 characters); \`/cloud server known\` shows the uuids the bot has seen.`,
    });
    return z.NEVER;
  }
  try {
    return serverUuid(value);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : 'not a server uuid' });
    return z.NEVER;
  }
});

export const sgAttach = defineChange({
  id: 'sg.attach',
  summary: 'Attach a server (short uuid or uuid) to a security group; its rules are applied to it',
  args: { id: groupArg, server: lookedUpAs(positional('server-uuid', attachServer, '8-character short uuid or full uuid (not the numeric id)'), seenHint('server')) },
  run: ({ cloud, signal }, { id, server }) => cloud.securityGroups.attachServer(id, server, { signal }),
  change: {
    confirm: false,
    describe: ({ id, server }) => ({
      title: md`Attach server ${val(server)} to security group ${id}`,
      lines: [md`The group’s rules are deployed to the server’s node.`],
    }),
    bodyToArg: { server_uuid: 'server' },
    syncGroup: ({ id }) => id,
    summarize: (r, { id, server }) => ({
      text: md`Server ${val(server)} is ${r.status && r.status !== 'attached' ? val(r.status) : md`attached`} to security group ${val(id)}; its rules apply to it now.`,
    }),
  },
});

// ── sg deploy ───────────────────────────────────────────────────────────────────────────────

export const sgDeploy = defineChange({
  id: 'sg.deploy',
  summary: 'Apply a security group’s saved rules to the nodes of its servers again',
  args: { id: groupArg },
  run: ({ cloud, signal }, { id }) => cloud.securityGroups.deploy(id, { signal }),
  change: {
    confirm: false,
    describe: ({ id }) => ({ title: md`Deploy security group ${id}`, lines: [md`The saved rules are applied again on every node of its attached servers.`] }),
    syncGroup: ({ id }) => id,
    summarize: (_r, { id }) => ({ text: md`Security group ${val(id)} is deployed: its saved rules apply on every node of its servers.` }),
  },
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const SG_CHANGES = [sgAddRule, sgDeleteRule, sgAttach, sgDeploy];
