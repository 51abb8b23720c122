/**
 * "Did you mean …?" for a mistyped command: the known names closest to what was typed, by edit
 * distance (a swap of two neighbouring letters counts as one edit, as `craete` → `create`).
 */

/** The candidates within a distance of about a third of the word (at least 1, at most 3), closest first. */
function suggestions(typed: string, candidates: readonly string[]): string[] {
  const limit = Math.min(3, Math.max(1, Math.floor(typed.length / 3)));
  return candidates
    .map((c) => ({ c, d: editDistance(typed.toLowerCase(), c.toLowerCase()) }))
    .filter(({ c, d }) => d <= limit || (typed.length >= 3 && c.startsWith(typed)))
    .sort((a, b) => a.d - b.d || (a.c < b.c ? -1 : 1))
    .map(({ c }) => c);
}

/** " (did you mean 'create'?)" or "" when nothing is close. */
export function didYouMean(typed: string, candidates: readonly string[]): string {
  const [best, second] = suggestions(typed, candidates);
  if (best === undefined) return '';
  return second === undefined ? ` (did you mean '${best}'?)` : ` (did you mean '${best}' or '${second}'?)`;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}
