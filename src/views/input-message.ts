/**
 * A validation message of our own that quotes what the person typed, “like this” (the quoting
 * helpers in cloud/ids.ts and operations/firewall-syntax.ts turn curly quotes inside the
 * input into straight ones, so a quoted part always ends where the input ends). Our words
 * stay words; each quoted part becomes an inert value.
 */
import { join, val, type Mrkdwn } from './mrkdwn.js';
import { words } from './words.js';

export function inputMessage(message: string): Mrkdwn {
  const parts: Mrkdwn[] = [];
  let last = 0;
  for (const m of message.matchAll(/“([^“”]*)”/g)) {
    parts.push(words(message.slice(last, m.index)), val(m[1]!));
    last = m.index + m[0].length;
  }
  parts.push(words(message.slice(last)));
  return join(parts);
}
