/**
 * LLM-written text that goes into GitHub Markdown (PR summary and notes, triage summary, plan
 * steps, failure details) is data, not commands (issue #11). Without this, a summary saying
 * `Closes #5, closes #6` closes unrelated issues on merge, `@org/team` pings a team, an image
 * calls a remote beacon, a link phishes, and `<!-- autofix-run:… -->`, `<sub>` or a heading forges
 * the bot's own markers and sections. Each hazard is shown, not acted on: put in a code span or
 * escaped, so the text stays readable. Code the LLM wrote (code spans, fenced blocks) is kept.
 */
import { fence } from './markdown.js';
import { joinTokens, tokenizeInline } from './inline-tokens.js';
import { neutralizeInline, type InlineContext } from './neutralize-inline.js';

export interface NeutralizeOptions extends InlineContext {
  /**
   * The text goes on one line (a table cell, after a label): line breaks become spaces, so no
   * block structure is read. Without it the text is a block of its own (separated by blank lines).
   */
  inline?: boolean;
}

/** Zero-width, bidi overrides/isolates, BOM, soft hyphen, tag characters: text a reader cannot see. */
const INVISIBLE =
  /[\u00AD\u180E\u200B\u200C\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]|[\u{E0000}-\u{E007F}]/gu;
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const CONTAINER_MARKER = /^(?:>|(?:[-*+]|\d{1,9}[.)])(?=[ \t]))/;
/** A thematic break, or a setext underline (which wins over an empty list item). */
const RULE = /^ {0,3}(?:([-*_])[ \t]*(?:\1[ \t]*){2,}|=+[ \t]*|-+[ \t]*)$/;

/** Where a line's content starts, after indentation and blockquote and list markers. */
function contentStart(line: string): number {
  let i = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    const marker = CONTAINER_MARKER.exec(line.slice(i, i + 12));
    if (!marker) return i;
    i += marker[0].length;
  }
}

/**
 * Line starts that make a heading, a setext underline, a thematic break, or a link reference or
 * footnote definition (invisible text that also retargets links) are escaped.
 */
function escapeLineStart(line: string): string {
  if (RULE.test(line)) return line.replace(/^( {0,3})/, '$1\\');
  const prefix = line.slice(0, contentStart(line));
  const rest = line.slice(prefix.length);
  const risky =
    /^#{1,6}(?:[ \t]|$)/.test(rest) ||
    /^(?:=+|-+|(?:[-*_][ \t]*){3,})[ \t]*$/.test(rest) ||
    (rest.startsWith('[') && !/^\[[^\]]*\]\(/.test(rest));
  return risky ? `${prefix}\\${rest}` : line;
}

function neutralizeProse(lines: readonly string[], options: NeutralizeOptions): string {
  const tokens = tokenizeInline(lines.map(escapeLineStart).join('\n'));
  return joinTokens(neutralizeInline(tokens, options));
}

/** The info string's first word, if it is a plain language name. */
function infoWord(info: string): string {
  const word = info.trim().split(/\s+/)[0] ?? '';
  return /^[A-Za-z0-9_+#.-]{1,30}$/.test(word) ? word : '';
}

export function neutralizeMarkdown(text: string, options: NeutralizeOptions = {}): string {
  const clean = text.replace(INVISIBLE, '').replace(CONTROL, '').replace(/\r\n?/g, '\n');
  if (options.inline) return neutralizeProse([clean.replace(/\n/g, ' ')], options);

  const lines = clean.split('\n');
  const out: string[] = [];
  let prose: string[] = [];
  const flush = (): void => {
    if (prose.length > 0) out.push(neutralizeProse(prose, options));
    prose = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_OPEN.exec(lines[i]!);
    const marker = open?.[1];
    if (!open || !marker || (marker.startsWith('`') && open[2]!.includes('`'))) {
      prose.push(lines[i]!);
      continue;
    }
    // A fenced block is code: kept as written, but re-fenced by us at column 0 between blank
    // lines, so nothing before it can swallow its opening and nothing inside can close it early.
    const fenceChar = marker.startsWith('`') ? '`' : '~';
    const closing = new RegExp(`^ {0,3}${fenceChar}{${marker.length},}[ \\t]*$`);
    let end = i + 1;
    while (end < lines.length && !closing.test(lines[end]!)) end++;
    flush();
    out.push('', fence(lines.slice(i + 1, end).join('\n'), infoWord(open[2]!)), '');
    i = end;
  }
  flush();
  return out.join('\n');
}
