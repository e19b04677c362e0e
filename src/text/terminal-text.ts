/**
 * Command output as a terminal would show it, as plain text (pure): escape sequences gone, a line
 * redrawn with `\r` kept in its last version, control and invisible characters removed (tabs and
 * newlines stay). Output is untrusted: very long lines (minified code, base64 dumps) are dropped
 * or cut, and only the first `MAX_LINES` lines are read, so the work stays linear and bounded.
 */

/** Longer lines are no location line of any tool: dropped (or cut, for text shown to people). */
export const MAX_LINE_CHARS = 4096;
/** Lines read at most (the first ones). */
export const MAX_LINES = 200_000;

/** CSI (colours, cursor moves), OSC (titles, hyperlinks) and the other two-byte escapes. */
const ANSI =
  // eslint-disable-next-line no-control-regex -- escape sequences are what this removes
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
/** Control characters but tab and newline. */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
export const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/g;
/** Characters that show nothing (zero-width, bidirectional controls, tags). */
export const INVISIBLE =
  /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]|[\u{E0000}-\u{E007F}]/gu;

/** Text without its terminal escape sequences (colours, cursor moves, hyperlinks). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * The output's lines cleaned (index = line number in the output); a line too long for any
 * location is left empty (or, with `clipLong`, cut).
 */
export function terminalLines(output: string, clipLong = false): string[] {
  const lines = stripAnsi(output).split('\n', MAX_LINES);
  return lines.map((raw) => {
    // A progress line redrawn with `\r` shows its last version.
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const last = line.lastIndexOf('\r');
    const shown = last >= 0 ? line.slice(last + 1) : line;
    if (shown.length > MAX_LINE_CHARS && !clipLong) return '';
    const kept = shown.length > MAX_LINE_CHARS ? `${shown.slice(0, 400)} …` : shown;
    return kept.replace(CONTROL, '').replace(INVISIBLE, '').trimEnd();
  });
}

/** The output as plain text, for excerpts shown to people. */
export function plainOutput(output: string): string {
  return terminalLines(output, true).join('\n');
}
