/** "Did you mean": the nearest known word by edit distance, if it is near enough. */
export function editDistance(a, b) {
    const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
        let diag = prev[0];
        prev[0] = i;
        for (let j = 1; j <= b.length; j++) {
            const up = prev[j];
            prev[j] = Math.min(up + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
            diag = up;
        }
    }
    return prev[b.length];
}
/**
 * The candidate closest to `word`, or undefined when none is plausibly meant: a prefix match
 * wins ("cred" → "credentials"), otherwise at most a third of the word may differ.
 */
export function nearest(word, candidates) {
    const w = word.toLowerCase();
    if (!w)
        return undefined;
    const prefixed = candidates.filter((c) => c.startsWith(w));
    if (prefixed.length === 1)
        return prefixed[0];
    let best;
    for (const c of candidates) {
        const d = editDistance(w, c);
        if (!best || d < best.d)
            best = { c, d };
    }
    if (!best)
        return undefined;
    const allowed = Math.max(1, Math.floor(Math.max(w.length, best.c.length) / 3));
    return best.d <= allowed ? best.c : undefined;
}
/**
 * How near a typed word is to one candidate: 0 the same, 1 a prefix of it ("ser" → "server"),
 * 1 + the edit distance when at most a third differs; undefined when it is not plausibly meant.
 */
export function closeness(word, candidate) {
    const w = word.toLowerCase();
    const c = candidate.toLowerCase();
    if (!w)
        return undefined;
    if (w === c)
        return 0;
    if (c.startsWith(w))
        return 1;
    // An abbreviation keeps the first letter and drops others: "use" → "usage", "lst" → "list".
    if (w.length >= 2 && w[0] === c[0] && isSubsequence(w, c))
        return 2;
    const d = editDistance(w, c);
    return d <= Math.max(1, Math.floor(Math.max(w.length, c.length) / 3)) ? 1 + d : undefined;
}
function isSubsequence(w, c) {
    let i = 0;
    for (const ch of c)
        if (ch === w[i])
            i++;
    return i === w.length;
}
/** The nearest of several words naming one thing (a resource and its aliases). */
export function closest(word, names) {
    let best;
    for (const n of names) {
        const c = closeness(word, n);
        if (c !== undefined && (best === undefined || c < best))
            best = c;
    }
    return best;
}
//# sourceMappingURL=suggest.js.map