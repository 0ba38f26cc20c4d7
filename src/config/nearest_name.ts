/** Lowercase letters and digits only: `maxOutputBytes`, `max-output-bytes`, `MAX_OUTPUT_BYTES` match. */
function fold(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Levenshtein distance: the fewest one-character insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The name nearest to `word`. `spellings` maps every accepted spelling (a name itself, and
 * others such as its variable or flag) to its name; spellings are compared case- and
 * punctuation-blind by edit distance, and the first of equally near spellings wins.
 */
export function nearestName(word: string, spellings: ReadonlyMap<string, string>): string {
  const folded = fold(word);
  let best: { name: string; distance: number } | undefined;
  for (const [spelling, name] of spellings) {
    const distance = editDistance(folded, fold(spelling));
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined) throw new Error("nearestName needs at least one spelling");
  return best.name;
}
