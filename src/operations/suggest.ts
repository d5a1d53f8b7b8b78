/** "Did you mean": the nearest known word by edit distance, if it is near enough. */

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/**
 * The candidate closest to `word`, or undefined when none is plausibly meant: a prefix match
 * wins ("cred" → "credentials"), otherwise at most a third of the word may differ.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  if (!w) return undefined;
  const prefixed = candidates.filter((c) => c.startsWith(w));
  if (prefixed.length === 1) return prefixed[0];
  let best: { c: string; d: number } | undefined;
  for (const c of candidates) {
    const d = editDistance(w, c);
    if (!best || d < best.d) best = { c, d };
  }
  if (!best) return undefined;
  const allowed = Math.max(1, Math.floor(Math.max(w.length, best.c.length) / 3));
  return best.d <= allowed ? best.c : undefined;
}
