/**
 * Text the bot computed itself (a duration, a state word, a catalog label, a role name) as
 * mrkdwn: escaped and kept to one line, so even a slip cannot make it a mention or a link.
 * Never for text from the cloud or from a person: that goes through `val`.
 */
import { escapeEntities, oneLine, trusted, type Mrkdwn } from './mrkdwn.js';

export function words(text: string): Mrkdwn {
  return trusted(escapeEntities(oneLine(text)));
}
