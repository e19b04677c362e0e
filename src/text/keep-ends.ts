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

/**
 * The end of a command's output within `maxLines` and `maxChars` (test runners and compilers
 * print the error last), with a first line saying how much was cut when anything was.
 */
export function tailOf(text: string, maxLines: number, maxChars: number): string {
  const whole = text.replace(/\r\n/g, '\n').trimEnd();
  const lines = whole.split('\n');
  let out = lines.length > maxLines ? lines.slice(-maxLines).join('\n') : whole;
  if (out.length > maxChars) out = out.slice(-maxChars).replace(/^[^\n]*\n/, '');
  if (out.length >= whole.length) return whole;
  const kept = out.split('\n').length;
  return `[… ${lines.length - kept} earlier line(s) cut …]\n${out}`;
}

/**
 * The first `head` and last `tail` lines of a command's output, at most `maxChars` in all: the
 * tail is where test runners print the failure, the head where tools like npm print theirs
 * before pages of usage text. Says how many lines were cut between.
 */
export function headAndTail(text: string, head: number, tail: number, maxChars: number): string {
  const lines = text.replace(/\r\n/g, '\n').trimEnd().split('\n');
  const kept = keepEnds(lines.join('\n'), head, tail).map((l) =>
    l.length > 400 ? `${l.slice(0, 400)} …` : l,
  );
  const out = kept.join('\n');
  return out.length > maxChars ? tailOf(out, head + tail + 1, maxChars) : out;
}
