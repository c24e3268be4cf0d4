// "did you mean …?": the closest of some known names, by edit distance.

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

/**
 * The known name closest to `word`, when it is close enough to be a typo of it (at most a third
 * of its length away, or a name that contains it or that it contains, most of it); else undefined.
 * A short name inside a long word (`id` in `extrenal_id`) is no near miss of it.
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  const mostOf = (part: string, whole: string) => part.length >= 3 && part.length * 2 >= whole.length && whole.includes(part);
  const limit = Math.max(2, Math.ceil(w.length / 3));
  for (const k of known) {
    const kl = k.toLowerCase();
    // Lengths further apart than the limit, and one more than twice the other, can be neither
    // near (the distance is at least their difference) nor one most of the other: not scored (a
    // header cell of a kilobyte against thirty names took seconds).
    if (Math.abs(w.length - kl.length) > limit && (w.length > 2 * kl.length || kl.length > 2 * w.length)) continue;
    const d = editDistance(w, kl);
    const score = mostOf(w, kl) || mostOf(kl, w) ? Math.min(d, 1.5) : d;
    if (score < bestScore) {
      best = k;
      bestScore = score;
    }
  }
  if (best === undefined) return undefined;
  return bestScore <= limit ? best : undefined;
}
