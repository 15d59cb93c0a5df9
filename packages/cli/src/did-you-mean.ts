// "did you mean": the known name closest to an unknown one, when it is a plausible typo of it.

/** Levenshtein distance: the fewest single-character edits from `a` to `b`. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/** The name of `known` closest to `name`, when it is at most a third of that name's length away (2 at least). */
export function closestName(name: string, known: string[]): string | null {
  const lower = name.trim().toLowerCase();
  let best: { name: string; d: number } | null = null;
  for (const k of known) {
    const d = distance(lower, k);
    if (!best || d < best.d) best = { name: k, d };
  }
  return best && best.d <= Math.max(2, Math.floor(best.name.length / 3)) ? best.name : null;
}
