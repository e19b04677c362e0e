/**
 * A long message cut to its first and last lines: the first say what failed, the last are where
 * test runners and compilers print the error (a head-only cut hid the assertion at line 46 of 59).
 */
export function keepEnds(text: string, head = 5, tail = 25): string[] {
  const lines = text.split('\n');
  if (lines.length <= head + tail + 1) return lines;
  const cut = lines.length - head - tail;
  return [...lines.slice(0, head), `… ${cut} lines cut …`, ...lines.slice(-tail)];
}
