/** How numbers and quoted text appear in the ranking's reasons. */

/** Two decimals: the scores shown and ordered. */
export const round = (n: number): number => Math.round(n * 100) / 100;

/** `s` cut to `n` characters, with an ellipsis. */
export const short = (s: string, n = 40): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
