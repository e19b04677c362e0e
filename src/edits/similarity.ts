/**
 * Similarity of two strings in [0, 1] (1 − Levenshtein distance / longer length). Used only to
 * tell a context line quoted slightly wrong from an unrelated line.
 */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  // A length gap alone already bounds the ratio; skip the quadratic work when it cannot pass.
  if (Math.abs(a.length - b.length) / longer > 0.5)
    return 1 - Math.abs(a.length - b.length) / longer;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const sub = (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      cur.push(Math.min(sub, (prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1));
    }
    prev = cur;
  }
  return 1 - (prev[b.length] ?? longer) / longer;
}
