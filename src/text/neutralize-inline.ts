/**
 * The inline half of `neutralizeMarkdown`: rewrites the Markdown parts of LLM prose (never its
 * code) so that closing keywords for other issues, mentions, images, HTML and links off the
 * repository are shown, not acted on. Each pass turns a hazard into a code span or an escape.
 */
import { codeSpan } from './markdown.js';
import type { Token } from './inline-tokens.js';
import { isRepoUrl, type RepoContext } from './repo-url.js';

export interface InlineContext extends RepoContext {
  /** The run's own issue: the only one a closing keyword may name. */
  issueNumber?: number;
}

// GitHub closes issues named after close/fix/resolve in any form, with or without a colon, also as
// `owner/repo#N` or a full URL; a list is caught as one group so no item is left behind.
const KEYWORD = '[A-Za-z]*(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)(?![A-Za-z])';
const REF = String.raw`(?:[\w.-]+\/[\w.-]+)?#\d+|GH-\d+|https?:\/\/[^\s/<>]+\/[^\s/<>]+\/[^\s/<>]+\/(?:issues|pull)\/\d+`;
const GAP = String.raw`[ \t:*_~\\(\[]*(?:\n[ \t:*_~\\(\[]*)?`;
const SEP_UNIT = String.raw`(?:[ \t,;&*_~\\()\[\]]|and\b|or\b)`;
const SEP = `${SEP_UNIT}*(?:\\n${SEP_UNIT}*)?`;
const CLOSING = new RegExp(`${KEYWORD}${GAP}(?:${REF})(?:${SEP}(?:${REF}))*`, 'gi');
const REFERENCE = new RegExp(REF, 'gi');

const URL_START = /(?:(?:https?|ftp):\/\/|www\.)\S*/gi;
const MENTION = /(?<![A-Za-z0-9_])@[A-Za-z0-9][A-Za-z0-9_-]*(?:\/[A-Za-z0-9][A-Za-z0-9_.-]*)?/g;
const ENTITY = /^&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i;

function isOwnReference(ref: string, context: InlineContext): boolean {
  const own = context.issueNumber;
  if (own === undefined) return false;
  const short = /^(?:#|GH-)(\d+)$/i.exec(ref);
  if (short) return Number(short[1]) === own;
  const qualified = /^([\w.-]+)\/([\w.-]+)#(\d+)$/.exec(ref);
  if (qualified) {
    return (
      qualified[1]!.toLowerCase() === context.owner?.toLowerCase() &&
      qualified[2]!.toLowerCase() === context.repo?.toLowerCase() &&
      Number(qualified[3]) === own
    );
  }
  if (!isRepoUrl(ref, context)) return false;
  const path = new URL(ref).pathname.split('/');
  return path.length === 5 && /^(?:issues|pull)$/.test(path[3]!) && path[4] === String(own);
}

/** Splits `text` at each match; `replace` returns the token for a match, or undefined to keep it. */
function splitAt(
  text: string,
  pattern: RegExp,
  replace: (match: string) => Token | undefined,
): Token[] {
  const out: Token[] = [];
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    const token = replace(m[0]);
    if (!token) continue;
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    out.push(token);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

const code = (text: string): Token => ({ kind: 'raw', text: codeSpan(text) });

function closingKeywords(text: string, context: InlineContext): Token[] {
  return splitAt(text, CLOSING, (group) =>
    (group.match(REFERENCE) ?? []).every((ref) => isOwnReference(ref, context))
      ? undefined
      : code(group),
  );
}

/**
 * Plain text (a commit message: no Markdown there to hide in) keeps its words, but a closing
 * keyword that names any issue other than the run's own becomes `see`: merging never closes an
 * issue nobody asked the bot about.
 */
export function disarmClosingReferences(text: string, context: InlineContext): string {
  return text.replace(CLOSING, (group) =>
    (group.match(REFERENCE) ?? []).every((ref) => isOwnReference(ref, context))
      ? group
      : group.replace(new RegExp(`^${KEYWORD}`, 'i'), 'see'),
  );
}

/** The destination of an inline link whose `(` is at `from`, as CommonMark reads it. */
function destination(text: string, from: number): string {
  const start = /^[ \t]*\n?[ \t]*/.exec(text.slice(from))![0].length + from;
  if (text[start] === '<') {
    const end = text.indexOf('>', start);
    return end < 0 ? '' : text.slice(start + 1, end);
  }
  let depth = 0;
  let i = start;
  for (; i < text.length && !/\s/.test(text[i]!); i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '(') depth++;
    else if (text[i] === ')' && depth-- === 0) break;
  }
  return text.slice(start, i);
}

/**
 * Escapes what would become markup: every HTML tag, comment and autolink (`<`), character
 * references (which GitHub decodes into `#`, `@`, `<`…), images (`![`), alert boxes (`[!`), and
 * inline links whose destination is not in the repository. An escaped character is left alone.
 */
function escapeMarkup(text: string, context: InlineContext): Token[] {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '\\') {
      out += c + (next ?? '');
      i++;
    } else if (c === '<') {
      out += '&lt;';
    } else if (c === '&' && ENTITY.test(text.slice(i, i + 40))) {
      out += '&amp;';
    } else if ((c === '!' && next === '[') || (c === '[' && next === '!')) {
      out += `\\${c}`;
    } else if (c === ']' && next === '(' && !isRepoUrl(destination(text, i + 2), context)) {
      out += '\\]';
    } else {
      out += c;
    }
  }
  return [{ kind: 'text', text: out }];
}

/** A bare URL as GitHub autolinks it, without the trailing punctuation it leaves out. */
function trimUrl(url: string): string {
  let out = url;
  for (;;) {
    const before = out;
    out = out.replace(/[.,:;!?"'*_~]+$/, '');
    const opened = out.split('(').length;
    if (out.endsWith(')') && out.split(')').length > opened) out = out.slice(0, -1);
    if (out === before) return out;
  }
}

function bareUrls(text: string, context: InlineContext): Token[] {
  const tokens: Token[] = [];
  for (const part of splitAt(text, URL_START, (found) => ({ kind: 'raw', text: found }))) {
    if (part.kind === 'text') {
      tokens.push(part);
      continue;
    }
    const url = trimUrl(part.text);
    // A link into the repository stays live; anything else is shown, not linked.
    tokens.push(isRepoUrl(url, context) ? { kind: 'raw', text: url } : code(url));
    if (url.length < part.text.length) {
      tokens.push({ kind: 'text', text: part.text.slice(url.length) });
    }
  }
  return tokens;
}

function mentions(text: string): Token[] {
  return splitAt(text, MENTION, code);
}

const PASSES: ((text: string, context: InlineContext) => Token[])[] = [
  closingKeywords,
  escapeMarkup,
  bareUrls,
  mentions,
];

export function neutralizeInline(tokens: readonly Token[], context: InlineContext): Token[] {
  let out = [...tokens];
  for (const pass of PASSES) {
    out = out.flatMap((t) => (t.kind === 'text' ? pass(t.text, context) : [t]));
  }
  return out;
}
