/** Views of security groups: rules in the order the nodes apply them, attached servers. */
import type { FirewallRule, SecurityGroup } from '../cloud/schemas.js';
import type { Block, Reply } from '../operations/types.js';
import { code, context, esc, header, lineSections, section } from './blocks.js';

/** Lower priority first, rule id breaking ties (spec: "Adds a firewall rule and synchronizes…"). */
export function sortRules(rules: FirewallRule[]): FirewallRule[] {
  return [...rules].sort((a, b) => (a.priority ?? 0) - (b.priority ?? 0) || a.id - b.id);
}

export function ruleLine(r: FirewallRule): string {
  const icon = r.action === 'ACCEPT' ? ':white_check_mark:' : ':no_entry:';
  const from = r.source ? esc(r.source) : 'anywhere';
  const to = r.destination ? esc(r.destination) : 'anywhere';
  const proto = r.protocol ? esc(r.protocol) : 'any';
  const ports = [r.source_port && `from port ${esc(r.source_port)}`, r.destination_port && `port ${esc(r.destination_port)}`].filter(Boolean).join(', ');
  const comment = r.comment ? ` — _${esc(r.comment)}_` : '';
  return `${icon} ${code(`#${r.id}`)} prio ${r.priority ?? 0} · ${esc(r.type)} ${esc(r.action)} ${proto} ${from} → ${to}${ports ? ` ${ports}` : ''}${comment}`;
}

export function buildSecurityGroup(g: SecurityGroup): Reply {
  const rules = sortRules(g.rules ?? []);
  const servers = g.servers ?? [];
  const blocks: Block[] = [header(`Security group ${g.name ?? ''} (#${g.id})`.replace('  ', ' '))];
  if (g.description) blocks.push(context(esc(g.description)));
  blocks.push(section(`*Rules* (${rules.length}, applied top to bottom)`));
  blocks.push(...(rules.length ? lineSections(rules.map(ruleLine), 40) : [section('_No rules._')]));
  const serverLines = servers.map((s) => `• ${esc(s.name ?? '')} ${code(s.uuid_short ?? s.uuid)}`);
  blocks.push(section(`*Attached servers* (${servers.length})`));
  blocks.push(...(servers.length ? lineSections(serverLines, 5) : [section('_None._')]));
  return { text: `Security group #${g.id}: ${rules.length} rules, ${servers.length} servers`, blocks };
}
