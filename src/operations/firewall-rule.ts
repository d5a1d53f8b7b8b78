/**
 * Validation of a firewall rule as a person types it in Slack (command flags or the add-rule
 * modal), before anything is sent to the cloud. The output is the body of
 * POST /security-groups/{id}/rules (`AddRuleBody`, src/cloud/requests.ts).
 *
 * Sources: spec "Firewall rule" (field types, value sets, lengths), "POST
 * /security-groups/{id}/rules" (literal addresses; numeric ports only with a port-capable
 * protocol) and "Limits" (protocol 20, ports 50 characters; priority minimum 0). Where the spec
 * says nothing (the protocol list, which protocols carry ports, mixing IPv4 and IPv6, the
 * comment length) this follows what the sandbox's server side enforces
 * (src/sandbox/routes/security-groups.ts), so the bot never lets through what the cloud would
 * refuse on syntax; the unit tests check that against a running sandbox.
 *
 * Decisions (documented here because they are choices, not spec):
 * - type: case-insensitive; `in`/`ingress` → inbound, `out`/`egress` → outbound.
 * - action: case-insensitive; `allow` → ACCEPT; `deny` → DROP (the meaning ufw and most cloud
 *   firewalls give "deny": discard silently; REJECT, which answers the sender, must be asked for
 *   by name). The confirmation shows the canonical action, so an alias never hides what is sent.
 * - protocol: lower-cased; `icmp6`/`ipv6-icmp` → icmpv6. `all` and `any` are both kept as typed:
 *   the cloud accepts both and the spec does not say they are the same.
 * - source/destination: empty, `any` or `*` → null (unrestricted). Text is kept as typed (no
 *   canonicalisation of IPv6 or of host bits in a CIDR), only whitespace is normalised.
 * - ports: empty, `any` or `*` → null; spaces and leading zeros dropped; `80-90` is refused
 *   with a hint to write `80:90` (the cloud's range syntax) rather than silently rewritten.
 * - comment: trimmed; empty → omitted; at most 255 UTF-16 code units (`AddRuleBody` counts
 *   those; the sandbox counts code points, which is never more, so it is the safe bound).
 * - priority: empty → omitted (cloud default 0); at most 2147483647. The spec gives only the
 *   minimum; the cap is a bot-side guard (a 32-bit signed column is the common storage, and
 *   zod's `.int()` in `AddRuleBody` stops at 2^53 anyway). Seeded rules use 10…1000.
 */
import { z } from 'zod';
import { RULE_ACTIONS, RULE_TYPES } from '../cloud/requests.js';
import type { AddRuleBody } from '../cloud/requests.js';
import { fold, parseAddressSpec, parsePortSpec, PORT_SPEC_MAX, quote } from './firewall-syntax.js';
import type { AddressSpec, Parsed } from './firewall-syntax.js';
import { plainIssue } from '../views/input-message.js';

/** Protocols the cloud accepts (spec: "for example tcp, udp, icmp"; full set as the sandbox). */
export const FIREWALL_PROTOCOLS = ['tcp', 'udp', 'icmp', 'icmpv6', 'all', 'any', 'gre', 'esp', 'ah'] as const;
export type FirewallProtocol = (typeof FIREWALL_PROTOCOLS)[number];

/** Protocols that carry ports ("only with a port-capable protocol"): as the sandbox, tcp and udp. */
export const PORT_PROTOCOLS = ['tcp', 'udp'] as const satisfies readonly FirewallProtocol[];

/** Limits for the modal's `max_length` and for messages (spec "Limits"; comment as the sandbox). */
export const FIREWALL_LIMITS = {
  protocol: 20,
  port: PORT_SPEC_MAX,
  comment: 255,
  priorityMax: 2_147_483_647,
} as const;

/** The fields of a rule as typed, in the order errors are reported; also the modal's block ids. */
export const FIREWALL_RULE_FIELDS = [
  'type',
  'action',
  'protocol',
  'source',
  'destination',
  'source_port',
  'destination_port',
  'comment',
  'priority',
] as const;
export type FirewallRuleField = (typeof FIREWALL_RULE_FIELDS)[number];

/** fieldErrors key for input that is not an object at all (never from Slack). */
export const RULE_ERROR_KEY = 'rule';

type RuleType = (typeof RULE_TYPES)[number];
type RuleAction = (typeof RULE_ACTIONS)[number];

const TYPE_ALIASES: Readonly<Record<string, RuleType>> = {
  inbound: 'inbound',
  in: 'inbound',
  ingress: 'inbound',
  outbound: 'outbound',
  out: 'outbound',
  egress: 'outbound',
};

const ACTION_ALIASES: Readonly<Record<string, RuleAction>> = {
  accept: 'ACCEPT',
  allow: 'ACCEPT',
  reject: 'REJECT',
  drop: 'DROP',
  deny: 'DROP',
};

const PROTOCOL_ALIASES: Readonly<Record<string, FirewallProtocol>> = {
  ...Object.fromEntries(FIREWALL_PROTOCOLS.map((p) => [p, p])),
  icmp6: 'icmpv6',
  'ipv6-icmp': 'icmpv6',
};

const isPortProtocol = (p: FirewallProtocol): boolean => (PORT_PROTOCOLS as readonly string[]).includes(p);
const orList = (items: readonly string[]): string =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

const fail = <T>(message: string): Parsed<T> => ({ ok: false, message });
const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });

/** Text as typed; an absent or blank field is ''. */
const present = (v: string | null | undefined): string => fold(v ?? '');

function parseType(raw: string | null | undefined): Parsed<RuleType> {
  const text = present(raw);
  if (text === '') return fail('Choose the direction: inbound or outbound.');
  const type = TYPE_ALIASES[text.toLowerCase()];
  return type ? ok(type) : fail(`${quote(text)} is not a direction: use inbound (in) or outbound (out).`);
}

function parseAction(raw: string | null | undefined): Parsed<RuleAction> {
  const text = present(raw);
  if (text === '') return fail('Choose the action: ACCEPT, REJECT or DROP.');
  const action = ACTION_ALIASES[text.toLowerCase()];
  return action
    ? ok(action)
    : fail(`${quote(text)} is not an action: use ACCEPT (or allow), REJECT (answer the sender) or DROP (or deny; discard silently).`);
}

function parseProtocol(raw: string | null | undefined): Parsed<FirewallProtocol> {
  const text = present(raw);
  const choices = FIREWALL_PROTOCOLS.join(', ');
  if (text === '') return fail(`Choose the protocol: ${choices}.`);
  // Spec "Limits": protocol at most 20 characters; said separately so a pasted line is explained.
  if (text.length > FIREWALL_LIMITS.protocol) {
    return fail(`${quote(text)} is too long for a protocol (at most ${FIREWALL_LIMITS.protocol} characters): use one of ${choices}.`);
  }
  const protocol = PROTOCOL_ALIASES[text.toLowerCase()];
  return protocol ? ok(protocol) : fail(`${quote(text)} is not a protocol the cloud supports: use one of ${choices}.`);
}

function parseComment(raw: string | null | undefined): Parsed<string | undefined> {
  const text = (raw ?? '').trim();
  if (text === '') return ok(undefined);
  if (text.length > FIREWALL_LIMITS.comment) {
    return fail(`The comment is ${text.length} characters long; at most ${FIREWALL_LIMITS.comment} are allowed.`);
  }
  return ok(text);
}

/** Spec "Firewall rule": priority integer, lower applies first, default 0, minimum 0. */
function parsePriority(raw: string | null | undefined): Parsed<number | undefined> {
  const text = present(raw);
  if (text === '') return ok(undefined);
  const range = `a whole number from 0 (applied first) to ${FIREWALL_LIMITS.priorityMax}`;
  if (/^-\s*\d+$/.test(text)) return fail(`${quote(text)} is below the minimum: priorities start at 0 (applied first).`);
  if (!/^\d+$/.test(text)) return fail(`${quote(text)} is not a priority: use ${range}.`);
  const digits = text.replace(/^0+(?=\d)/, '');
  const n = digits.length > 10 ? Infinity : Number(digits);
  if (n > FIREWALL_LIMITS.priorityMax) return fail(`${quote(text)} is too large for a priority: use ${range}.`);
  return ok(n);
}

const rawText = z.string({ error: 'Enter this as text.' }).nullish();

/** The raw fields as typed in Slack: strings, or absent (`null` is how Slack sends a blank input). */
export const FirewallRuleRaw = z.object({
  type: rawText,
  action: rawText,
  protocol: rawText,
  source: rawText,
  destination: rawText,
  source_port: rawText,
  destination_port: rawText,
  comment: rawText,
  priority: rawText,
});
export type FirewallRuleRaw = z.input<typeof FirewallRuleRaw>;

type Check = { body: AddRuleBody; errors?: undefined } | { body?: undefined; errors: Partial<Record<FirewallRuleField, string>> };

/** Every field is checked (several bad fields → several messages at once), then the cross-field rules. */
function checkRule(raw: z.output<typeof FirewallRuleRaw>): Check {
  const errors: Partial<Record<FirewallRuleField, string>> = {};
  const take = <T>(field: FirewallRuleField, r: Parsed<T>): T | undefined => {
    if (r.ok) return r.value;
    errors[field] ??= r.message;
    return undefined;
  };

  const type = take('type', parseType(raw.type));
  const action = take('action', parseAction(raw.action));
  const protocol = take('protocol', parseProtocol(raw.protocol));
  const source = take('source', parseAddressSpec(raw.source ?? ''));
  const destination = take('destination', parseAddressSpec(raw.destination ?? ''));
  const comment = take('comment', parseComment(raw.comment));
  const priority = take('priority', parsePriority(raw.priority));

  // Ports: with a protocol that has none, the port field is what is wrong (the sandbox and the
  // spec: "only with a port-capable protocol"), so the message goes there, whatever the syntax.
  // With an unknown protocol only the syntax is checked; the protocol field has its own message.
  const ports = {} as Record<'source_port' | 'destination_port', string | null | undefined>;
  for (const field of ['source_port', 'destination_port'] as const) {
    const parsed = parsePortSpec(raw[field] ?? '');
    const given = !parsed.ok || parsed.value !== null;
    if (protocol !== undefined && given && !isPortProtocol(protocol)) {
      const label = field === 'source_port' ? 'source port' : 'destination port';
      errors[field] = `Ports are only allowed with ${orList(PORT_PROTOCOLS)}; ${protocol} has none — clear the ${label} or choose ${orList(PORT_PROTOCOLS)}.`;
      continue;
    }
    ports[field] = take(field, parsed);
  }

  // Mixing families cannot match any packet; the sandbox refuses it on `destination`.
  if (source && destination && source.family !== destination.family) {
    const name = (s: AddressSpec) => (s.family === 'ipv4' ? 'IPv4' : 'IPv6');
    errors.destination ??= `${quote(destination.text)} is ${name(destination)} but the source ${quote(source.text)} is ${name(source)}: a rule's source and destination must be the same IP family (add one rule per family).`;
  }

  if (Object.keys(errors).length > 0 || type === undefined || action === undefined || protocol === undefined) {
    return { errors };
  }
  const body: AddRuleBody = {
    type,
    action,
    protocol,
    source: source?.text ?? null,
    destination: destination?.text ?? null,
    source_port: ports.source_port ?? null,
    destination_port: ports.destination_port ?? null,
  };
  if (comment !== undefined) body.comment = comment;
  if (priority !== undefined) body.priority = priority;
  return { body };
}

/**
 * Zod schema over the raw Slack input whose output is an `AddRuleBody`. Problems are issues with
 * `path: [field]`, one per field, all fields checked in one pass.
 */
export const FirewallRuleInput = FirewallRuleRaw.transform((raw, ctx): AddRuleBody => {
  const checked = checkRule(raw);
  if (checked.body) return checked.body;
  for (const field of FIREWALL_RULE_FIELDS) {
    const message = checked.errors[field];
    if (message !== undefined) ctx.addIssue({ code: 'custom', message, path: [field], input: raw[field] });
  }
  return z.NEVER;
});

export type FirewallRuleResult = { ok: true; body: AddRuleBody } | { ok: false; fieldErrors: Record<string, string> };

/**
 * Validates raw input; never throws. `fieldErrors` maps a field name to one human sentence, as
 * Slack's `response_action: "errors"` wants (keyed by block id = field name); input that is not
 * an object is reported under `RULE_ERROR_KEY`.
 */
export function validateFirewallRule(raw: unknown): FirewallRuleResult {
  const parsed = FirewallRuleInput.safeParse(raw, { error: plainIssue });
  if (parsed.success) return { ok: true, body: parsed.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.length === 0 ? RULE_ERROR_KEY : String(issue.path[0]);
    const message = issue.path.length === 0 ? 'The firewall rule must be given as named text fields.' : issue.message;
    fieldErrors[key] ??= message;
  }
  return { ok: false, fieldErrors };
}
