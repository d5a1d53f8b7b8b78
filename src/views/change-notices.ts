/** Short answers around a change: the bot is not in the channel; a click that came too late. */
import type { Reply } from '../operations/types.js';
import type { OperationRecord } from '../store/types.js';
import { code, context, section } from './blocks.js';

export function buildNotInChannel(slackCode: string): Reply {
  const why =
    slackCode === 'channel_not_found'
      ? 'I cannot see this conversation (a private channel or a direct message I am not part of).'
      : slackCode === 'is_archived'
        ? 'This channel is archived.'
        : 'I am not a member of this channel.';
  return {
    text: 'I cannot post in this channel, so nothing was done.',
    blocks: [
      section(
        `:no_entry: ${why} Changes are announced in the channel so the team can see them, so *nothing was sent to the cloud*.\nInvite me with ${code('/invite @cloudbot')} (or run the command in a channel I am in), then try again.`,
      ),
      context(`Slack said ${code(slackCode)}.`),
    ],
  };
}

/** What a click is told when it did not act: who already did, or why it is too late. */
export function buildClickAnswer(record: OperationRecord | undefined, userId: string, reason: string): string {
  if (!record || reason === 'not_found') return 'This request is no longer known to the bot.';
  const who = (id: string | null) => (id === userId ? 'you' : id ? `<@${id}>` : 'someone');
  switch (record.status) {
    case 'pending':
      return reason === 'expired' ? 'This request has expired; nothing was done. Run the command again.' : 'This request is still waiting.';
    case 'confirmed':
    case 'running':
      return `Already confirmed by ${who(record.confirmedBy)}; it is running.`;
    case 'succeeded':
      return `Already done: confirmed by ${who(record.confirmedBy)}.`;
    case 'failed':
      return `Already tried after ${who(record.confirmedBy)} confirmed it; it failed. Run the command again to retry.`;
    case 'cancelled':
      return `Cancelled by ${who(typeof record.result?.cancelledBy === 'string' ? record.result.cancelledBy : null)}; nothing was done.`;
    case 'expired':
      return 'This request has expired; nothing was done. Run the command again.';
  }
}
