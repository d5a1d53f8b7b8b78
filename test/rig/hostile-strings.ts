/**
 * Hostile strings for the chat-output property tests: Slack markup (mentions, links, date
 * tokens), formatting characters, entities, line breaks, bidirectional controls and very long
 * runs, mixed. Every generated string starts with `HOSTILE_MARKER`, so the checker can tell
 * where outside text landed in what the bot sent (test/rig/mrkdwn-abuse-checker.ts).
 */
import fc from 'fast-check';

/** Never written by the bot itself: wherever it shows up, a hostile value put it there. */
export const HOSTILE_MARKER = 'HOSTILEq7';

/** A fixed sample for unit tests of single views: one value per kind of abuse, and one with all. */
export const HOSTILE_SAMPLES: readonly string[] = [
  `${HOSTILE_MARKER}<!channel>`,
  `${HOSTILE_MARKER}<@U1>`,
  `${HOSTILE_MARKER}<http://x|y>`,
  `${HOSTILE_MARKER} ok\n*Approved*`,
  `${HOSTILE_MARKER}\u202Egnp.exe`,
  `${HOSTILE_MARKER}<!channel> <@U1> <http://x|y>\n*Approved* \u202E \`code\` &amp;`,
];

/** Nothing is allowed to be live: no actor, channel or link. */
export const NOTHING_LIVE = { users: [], channels: [], url: () => false, marker: HOSTILE_MARKER } as const;

/** Pieces that would be live markup, or break it, if they reached mrkdwn unescaped. */
export const HOSTILE_FRAGMENTS: readonly string[] = [
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<!subteam^S1>',
  '<!subteam^S1|@admins>',
  '<!date^1700000000^{date}|x>',
  '<@U1>',
  '<@W2|boss>',
  '<#C1>',
  '<#C1|general>',
  '<http://x|y>',
  '<https://evil.example/login|https://docs.example>',
  '<mailto:a@evil.example|mail>',
  '<https://evil.example>',
  'https://evil.example/bare',
  '&',
  '&amp;',
  '&lt;!here&gt;',
  '<',
  '>',
  '|',
  '*',
  '_',
  '~',
  '`',
  '```',
  '*bold*',
  '_italic_',
  '~strike~',
  '`code`',
  ':skull:',
  '> quoted',
  '\n',
  '\r\n',
  '\n<!channel>\n',
  '\u202e',
  '\u202egnp.exe',
  '\u2028',
  '\t',
  ' ',
  '"',
  "'",
  '\\',
];

const fragment = fc.constantFrom(...HOSTILE_FRAGMENTS);
/** Plain filler so the markup is not always adjacent to the marker. */
const filler = fc.string({ unit: fc.constantFrom('a', 'b', 'z', '0', '-', '.', ' '), maxLength: 6 });
const piece = fc.oneof({ weight: 3, arbitrary: fragment }, { weight: 1, arbitrary: filler });

/** A short hostile string (fits names with a 40-character limit most of the time). */
export const hostileShort: fc.Arbitrary<string> = fc
  .array(piece, { minLength: 1, maxLength: 5 })
  .map((parts) => HOSTILE_MARKER + parts.join(''));

/** A very long one: the fragments repeated to about 5,000 characters. */
export const hostileLong: fc.Arbitrary<string> = fc
  .array(fragment, { minLength: 3, maxLength: 8 })
  .map((parts) => {
    const unit = parts.join('') + HOSTILE_MARKER;
    return (HOSTILE_MARKER + unit.repeat(Math.ceil(5000 / unit.length))).slice(0, 5000);
  });

export const hostileString: fc.Arbitrary<string> = fc.oneof({ weight: 3, arbitrary: hostileShort }, { weight: 1, arbitrary: hostileLong });

/**
 * A hostile value a person can type into one slash-command word: wrapped in double quotes by
 * `typedWord`, so it may hold anything but a double quote.
 */
export const hostileTyped: fc.Arbitrary<string> = hostileString.map((s) => s.replace(/["“”]/g, ''));

/** `"value"` as a person types it; the caller escapes the whole command text like Slack. */
export const typedWord = (value: string): string => `"${value.replace(/["“”]/g, '')}"`;

/** Slack sends slash-command text with `&`, `<` and `>` escaped (…/formatting#escaping). */
export const asSlackSends = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One hostile value per cloud field (enough distinct ones that a mix-up shows). */
export const hostileSet = (n: number): fc.Arbitrary<string[]> => fc.array(hostileString, { minLength: n, maxLength: n });
