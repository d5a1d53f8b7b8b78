/**
 * The shell's channels: its own (#shell) and every channel of the policy file, each with what
 * the policy says about it (its account, its ceiling), so `channel` can list them and switch
 * between them to show which account each channel drives. Pure.
 */
import { channelRule, type Policy } from '../access/policy.js';
import { SHELL_CHANNEL } from './identity.js';
import type { ChannelRef } from './payloads.js';

export interface ShellChannel extends ChannelRef {
  /** What the policy says here, e.g. `account prod · ceiling read, change`; '' when nothing. */
  about: string;
}

export const HOME_CHANNEL: ShellChannel = { ...SHELL_CHANNEL, about: '' };

/** #shell first, then the file's channels in its order. */
export function shellChannels(policy: Policy | undefined): ShellChannel[] {
  if (!policy) return [HOME_CHANNEL];
  const ids = [SHELL_CHANNEL.id, ...Object.keys(policy.channels).filter((id) => id !== SHELL_CHANNEL.id)];
  return ids.map((id) => {
    const rule = channelRule(policy, id);
    const name = id === SHELL_CHANNEL.id ? SHELL_CHANNEL.name : (policy.channels[id]?.label ?? id);
    return { id, name, about: describeRule(policy, rule) };
  });
}

function describeRule(policy: Policy, rule: ReturnType<typeof channelRule>): string {
  if (rule === 'deny') return 'commands refused here (default_channel: deny)';
  const parts: string[] = [];
  if (policy.namedAccounts) {
    const others = rule.accounts.filter((a) => a !== rule.account);
    parts.push(`account ${rule.account}${others.length ? ` (--account ${others.join(', ')} too)` : ''}`);
  }
  if (rule.ceiling) parts.push(`ceiling ${rule.ceiling.join(', ')}`);
  return parts.join(' · ');
}

/** The channel `query` names: its id, or its name with or without `#` (any case). */
export function findChannel(channels: readonly ShellChannel[], query: string): ShellChannel | undefined {
  const q = query.trim().replace(/^#/, '').toLowerCase();
  return channels.find((c) => c.id.toLowerCase() === q) ?? channels.find((c) => c.name.toLowerCase() === q);
}

/** `channel` with no argument: every channel, the current one marked. */
export function channelListText(channels: readonly ShellChannel[], current: ShellChannel): string {
  const width = Math.max(...channels.map((c) => c.name.length)) + 1;
  const lines = channels.map((c) => {
    const mark = c.id === current.id ? '*' : ' ';
    return `${mark} ${`#${c.name}`.padEnd(width)}  ${c.id}${c.about ? `  ${c.about}` : ''}`;
  });
  return ['Channels (* is where your commands come from):', ...lines, 'Switch with: channel NAME (or its id).'].join('\n');
}

/** What is said after switching. */
export function switchedText(channel: ShellChannel): string {
  return `Now in #${channel.name} (${channel.id})${channel.about ? ` — ${channel.about}` : ''}. Commands come from here.`;
}
