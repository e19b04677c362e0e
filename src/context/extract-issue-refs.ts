/**
 * What an issue points at: file paths (with a line, from stack traces, `file:line` or GitHub
 * links), and code identifiers (backticked, camelCase, snake_case, `name(`). Pure.
 */

export interface PathMention {
  /** As normalised: forward slashes, no `./`, no URL or `#L` suffix. */
  path: string;
  line?: number;
  /** The text as it appeared, for explanations. */
  raw: string;
}

export interface IssueRefs {
  paths: PathMention[];
  identifiers: string[];
}

const PY_TRACE = /File "([^"]+)", line (\d+)/g;
const TOKEN_SPLIT = /[\s"'`<>()[\]{},;|*]+/;
const LINE_SUFFIX = /^(.*?)(?::(\d+))?(?::\d+)?$/;
const GITHUB_BLOB =
  /^https?:\/\/[^/]+\/[^/]+\/[^/]+\/(?:blob|tree|raw)\/[^/]+\/(.+?)(?:#L(\d+)(?:-L\d+)?)?$/;
const HAS_EXTENSION = /(^|\/)[\w@+-][\w@.+-]*\.[A-Za-z][A-Za-z0-9]{0,7}$/;
const COMMON_DOTTED = /^(e\.g|i\.e|etc|vs|v\d+(\.\d+)*|node\.js|next\.js|vue\.js|\d+(\.\d+)+)$/i;

function normalise(path: string): string {
  return path
    .replace(/\\/g, '/')
    .replace(/^[A-Za-z]:\//, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/{2,}/g, '/');
}

function pathFromToken(token: string): PathMention | undefined {
  const raw = token.replace(/[.,:;!?]+$/, '');
  const blob = GITHUB_BLOB.exec(raw);
  if (blob) {
    const line = blob[2] ? Number(blob[2]) : undefined;
    return { path: normalise(decodeURIComponent(blob[1] ?? '')), ...(line ? { line } : {}), raw };
  }
  if (/^[a-z]+:\/\//i.test(raw)) return undefined;
  const m = LINE_SUFFIX.exec(raw);
  const path = normalise(m?.[1] ?? raw);
  if (path.length < 3 || COMMON_DOTTED.test(path)) return undefined;
  const looksLikePath = HAS_EXTENSION.test(path) || (path.includes('/') && /[A-Za-z]/.test(path));
  if (!looksLikePath || /^\/+$/.test(path)) return undefined;
  const line = m?.[2] ? Number(m[2]) : undefined;
  return { path: path.replace(/\/$/, ''), ...(line ? { line } : {}), raw };
}

const CAMEL = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/;
const PASCAL = /^[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*$/;
const SNAKE = /^[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+$/;
const SCREAMING = /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/;

function identifiersIn(text: string, fromCode: boolean): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*(\()?/g)) {
    const name = m[0].replace(/\($/, '');
    const called = m[1] !== undefined;
    if (name.length < 3) continue;
    if (
      fromCode ||
      called ||
      CAMEL.test(name) ||
      PASCAL.test(name) ||
      SNAKE.test(name) ||
      SCREAMING.test(name)
    )
      out.push(name);
  }
  return out;
}

export function extractIssueRefs(text: string): IssueRefs {
  const paths: PathMention[] = [];
  for (const m of text.matchAll(PY_TRACE)) {
    const mention = pathFromToken(m[1] ?? '');
    if (mention) paths.push({ ...mention, line: Number(m[2]) });
  }
  for (const token of text.split(TOKEN_SPLIT)) {
    const mention = token ? pathFromToken(token) : undefined;
    const known = (p: PathMention): boolean =>
      p.path === mention?.path && (p.line === mention.line || mention.line === undefined);
    if (mention && !paths.some(known)) paths.push(mention);
  }

  const identifiers = new Set<string>();
  const codeSpans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');
  for (const span of codeSpans) for (const id of identifiersIn(span, true)) identifiers.add(id);
  const prose = text.replace(/`[^`\n]+`/g, ' ');
  for (const id of identifiersIn(prose, false)) identifiers.add(id);
  // A path's own words are not identifiers (`refund.ts` is not a call to `refund`).
  const pathWords = new Set(paths.flatMap((p) => p.path.split(/[/.]/)));
  return {
    paths,
    identifiers: [...identifiers].filter((id) => !pathWords.has(id)).sort(),
  };
}
