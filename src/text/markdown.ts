/** Small Markdown helpers shared by the pure renderers (status, failure, replies). */

/** Keeps a table cell on one line and stops `|` from splitting it. */
export function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A code fence longer than any backtick run inside, so the text cannot close it. */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text.replace(/\n$/, '')}\n${ticks}`;
}

/**
 * Inline code with a delimiter longer than any backtick run inside, so the text cannot end it
 * early (a path or command with a backtick would otherwise spill out as live Markdown).
 */
export function codeSpan(text: string): string {
  const flat = text.replace(/\r?\n/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  // A space pads a leading/trailing backtick; CommonMark strips one space at each end.
  const pad = flat.startsWith('`') || flat.endsWith('`') || /^ .*[^ ].* $/.test(flat) ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** Keeps head and tail of a long text (GitHub refuses comments over 65,536 characters). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n… ${text.length - 2 * half} characters cut …\n${text.slice(-half)}`;
}

/** The hidden marker that lets a retried job find the comment it created before. */
export function runMarker(runId: string): string {
  return `<!-- autofix-run:${runId} -->`;
}
