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
  /** A frame of a stack trace (Python, JavaScript or Go), not a path in prose. */
  trace?: boolean;
}

export interface IssueRefs {
  paths: PathMention[];
  identifiers: string[];
  /** Command-line options as written (`--max-age`), each once. */
  options: string[];
  /** Quoted error messages and `SomeError: message` lines (message text only). */
  messages: string[];
  /** Dotted module or attribute paths (`pkg.sub.module`, `Class.method`). */
  dotted: string[];
  /** Names the issue gives to a part of the code ("the utc plugin", `weekOfYear`). */
  names: string[];
}

const PY_TRACE = /File "([^"]+)", line (\d+)/g;
/** `at fn (path:line:col)`, `at path:line:col` (JavaScript), `\tpath.go:123 +0x1f` (Go). */
const JS_TRACE = /^\s*at (?:.*?\()?((?:[A-Za-z]:)?[^\s()]+?):(\d+)(?::\d+)?\)?\s*$/gm;
const GO_TRACE = /^\s+(\/?[^\s:]+\.go):(\d+)(?: \+0x[0-9a-f]+)?\s*$/gm;
const OPTION = /(?<![\w-])--([a-z][a-z0-9]*(?:[-_][a-z0-9]+)*)(?![\w-])/gi;
const ERROR_LINE =
  /^\s*(?:[\w.]*(?:Error|Exception|Warning|Panic)|(?:[a-z_]\w*\.)+[A-Z]\w*|panic|error|fatal|FATAL|ERROR|Error)(?:\[\w+\])?:\s*(.{8,200}?)\s*$/gm;
const QUOTED = /(?:^|[\s(:=])(["'“‘])([^"'“”‘’\n]{12,160})(?:["'”’])/g;
const DOTTED = /(?<![\w.$/-])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)(?![\w$/-])/g;
/** A noun a maintainer puts after the name of a part of the code ("the utc plugin"). */
const PART_NOUN =
  /\b([A-Za-z][\w-]{2,40})\s+(?:plugin|module|package|command|subcommand|component|middleware|extension|backend|driver|adapter|handler|parser|formatter|loader|provider|transport|resolver|balancer|codec|locale|option|setting|hook|filter|field|widget|card|theme|generator)s?\b/gi;
const COMMON_WORDS = new Set(
  (
    'the this that a an my your our their its any each every some new old custom default same ' +
    'other another which what one two first last main core built builtin internal external ' +
    'following above below given specific certain different single multiple all no not with ' +
    'and or is are was be been using use used of in on for to from by as at'
  ).split(' '),
);
const TOKEN_SPLIT = /[\s"'`<>()[\]{},;|*]+/;
const LINE_SUFFIX = /^(.*?)(?::(\d+))?(?::\d+)?$/;
const GITHUB_BLOB =
  /^https?:\/\/[^/]+\/[^/]+\/[^/]+\/(?:blob|tree|raw)\/[^/]+\/(.+?)(?:#L(\d+)(?:-L\d+)?)?$/;
const HAS_EXTENSION = /(^|\/)[\w@+-][\w@.+-]*\.[A-Za-z][A-Za-z0-9]{0,7}$/;
/** A dotted name that ends like a file name is a file, not a module path (`dayjs.utc` is not). */
const FILE_EXTENSION =
  /\.(m?[jt]sx?|cjs|py|pyi|go|rb|rs|java|kt|md|rst|txt|json|ya?ml|toml|ini|cfg|html?|css|scss|lock|sh|xml|csv|c|h|cpp|hpp|cs|php|swift|vue|svelte|log|env|png|jpe?g|svg)$/i;
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
  for (const re of [PY_TRACE, JS_TRACE, GO_TRACE])
    for (const m of text.matchAll(re)) {
      const mention = pathFromToken(m[1] ?? '');
      if (mention && !/^(node:|internal\/)/.test(m[1] ?? ''))
        paths.push({ ...mention, line: Number(m[2]), trace: true });
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
  const ids = [...identifiers].filter((id) => !pathWords.has(id)).sort();
  const dotted = new Set<string>();
  for (const m of text.matchAll(DOTTED)) {
    const d = m[1] ?? '';
    if (COMMON_DOTTED.test(d) || FILE_EXTENSION.test(d)) continue;
    if (d.split('.').some((part) => part.length < 2)) continue;
    dotted.add(d);
  }
  const names = new Set<string>(ids);
  for (const span of codeSpans) {
    const word = span.trim();
    if (/^[A-Za-z][\w-]{2,40}$/.test(word)) names.add(word);
  }
  for (const m of text.matchAll(PART_NOUN)) {
    const word = m[1] ?? '';
    if (!COMMON_WORDS.has(word.toLowerCase())) names.add(word);
  }
  return {
    paths,
    identifiers: ids,
    options: [...new Set([...text.matchAll(OPTION)].map((m) => `--${m[1] ?? ''}`))].sort(),
    messages: extractMessages(text),
    dotted: [...dotted].sort(),
    names: [...names].sort(),
  };
}

/** Error messages: `XError: message` lines, and quoted sentences of three words or more. */
function extractMessages(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(ERROR_LINE)) out.add((m[1] ?? '').trim());
  for (const m of text.matchAll(QUOTED)) {
    const quoted = (m[2] ?? '').trim();
    if (quoted.split(/\s+/).length >= 3 && /[a-z]/i.test(quoted)) out.add(quoted);
  }
  return [...out].filter((msg) => msg.length >= 8).slice(0, 12);
}
