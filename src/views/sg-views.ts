/** Views of security groups: rules in the order the nodes apply them, attached servers. */
import type { FirewallRule, SecurityGroup } from '../cloud-api/schemas.js';
import type { Block, Reply } from './types.js';
import { context, header, lineSections, section } from './blocks.js';
import { join, md, trusted, val, type Mrkdwn } from './mrkdwn.js';
import { pagedLines, type ListPaging } from './pager.js';

/** Lower priority first, rule id breaking ties (spec: "Adds a firewall rule and synchronizes…"). */
export function sortRules(rules: FirewallRule[]): FirewallRule[] {
  return [...rules].sort((a, b) => (a.priority ?? 0) - (b.priority ?? 0) || a.id - b.id);
}

/** A rule's fields as the person reads them; any of them may come from the cloud. */
export interface RuleLike {
  type: string;
  action: string;
  protocol?: string | null;
  source?: string | null;
  destination?: string | null;
  source_port?: string | null;
  destination_port?: string | null;
  comment?: string | null;
  priority?: number | null;
}

// The spec's directions, actions and protocols read as words; anything else is shown as a value.
const WORDS = new Set(['inbound', 'outbound', 'ACCEPT', 'REJECT', 'DROP', 'tcp', 'udp', 'icmp', 'icmpv6', 'all', 'any', 'gre', 'esp', 'ah']);
const word = (v: unknown): Mrkdwn => (typeof v === 'string' && WORDS.has(v) ? trusted(v) : val(v == null ? null : String(v)));
const num = (v: unknown): Mrkdwn | number => (typeof v === 'number' && Number.isFinite(v) ? v : v == null ? 0 : val(String(v)));
const text = (v: unknown): Mrkdwn => val(String(v));

/** One line, e.g. inbound ACCEPT tcp from `10.0.0.0/8` to anywhere port `443`, priority 0 (`web`); no priority given, none named. */
export function ruleText(r: RuleLike): Mrkdwn {
  const from = md`from ${r.source ? text(r.source) : md`anywhere`}${r.source_port ? md` port ${text(r.source_port)}` : md``}`;
  const to = md`to ${r.destination ? text(r.destination) : md`anywhere`}${r.destination_port ? md` port ${text(r.destination_port)}` : md``}`;
  const comment = r.comment ? md` (${text(r.comment)})` : md``;
  // A request without a priority names none (the cloud applies its default): the line says what is sent.
  const priority = r.priority == null ? md`` : md`, priority ${num(r.priority)}`;
  return md`${word(r.type)} ${word(r.action)} ${word(r.protocol ?? 'any')} ${from} ${to}${priority}${comment}`;
}

export function ruleLine(r: FirewallRule): Mrkdwn {
  const icon = r.action === 'ACCEPT' ? md`:white_check_mark:` : md`:no_entry:`;
  const from = r.source ? val(r.source) : md`anywhere`;
  const to = r.destination ? val(r.destination) : md`anywhere`;
  const ports = join(
    [r.source_port ? md`from port ${val(r.source_port)}` : null, r.destination_port ? md`port ${val(r.destination_port)}` : null].filter((p): p is Mrkdwn => p !== null),
    ', ',
  );
  const comment = r.comment ? md` — ${val(r.comment)}` : md``;
  return md`${icon} ${val(`#${r.id}`)} prio ${num(r.priority)} · ${word(r.type)} ${word(r.action)} ${r.protocol ? word(r.protocol) : md`any`} ${from} → ${to}${ports ? md` ${ports}` : md``}${comment}`;
}

/** `paging`: which page of the rules (a group may have hundreds), and how to ask for another. */
export function buildSecurityGroup(g: SecurityGroup, paging?: ListPaging): Reply {
  const rules = sortRules(g.rules ?? []);
  const servers = g.servers ?? [];
  const blocks: Block[] = [header(`Security group ${g.name ?? ''} (#${g.id})`.replace('  ', ' '))];
  if (g.description) blocks.push(context(val(g.description)));
  blocks.push(section(md`*Rules* (${rules.length}, applied top to bottom)`));
  blocks.push(...(rules.length ? pagedLines(rules.map(ruleLine), paging, md`rules`) : [section(md`_No rules._`)]));
  const serverLines = servers.map((s) => md`• ${s.name ? md`${val(s.name)} ` : md``}${val(s.uuid_short ?? s.uuid)}`);
  blocks.push(section(md`*Attached servers* (${servers.length})`));
  blocks.push(...(servers.length ? lineSections(serverLines, 3) : [section(md`_None._`)]));
  return { text: md`Security group ${val(`#${g.id}`)}: ${rules.length} rules, ${servers.length} servers`, blocks };
}
