/** Edit distance (insert, delete, replace, swap two neighbours): how far a typo is from a word. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known word a typo most likely meant: the nearest within a third of its length (at least 2
 * edits), or those the typo is a prefix of or shares the part after the colon with (`rewrap` for
 * `keys:rewrap`; `rotate` for both `apikey:rotate` and `keys:rotate`, said as "a or b");
 * undefined when nothing is close.
 */
export function closest(typo: string, known: readonly string[]): string | undefined {
  if (typo.length > 64) return undefined;
  const lower = typo.toLowerCase();
  const ranked = known.map((word) => ({ word, distance: editDistance(lower, word.toLowerCase()) })).sort((x, y) => x.distance - y.distance);
  const best = ranked[0];
  if (best && best.distance <= Math.max(2, Math.floor(typo.length / 3))) return best.word;
  const alike = known.filter((word) => word.startsWith(lower) || word.split(':')[1] === lower);
  return alike.length ? alike.join(' or ') : undefined;
}
