/** The text as a pattern that matches exactly it: every character a RegExp gives a meaning to, escaped (MDN's escapeRegExp). */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
