/**
 * What an issue points at: file paths (with a line, from stack traces, `file:line` or GitHub
 * links), and code identifiers (backticked, camelCase, snake_case, `name(`). Pure.
 */
import { fencedLines, titleOf, visibleIssueText } from './issue-text.js';

export interface PathMention {
  /** As normalised: forward slashes, no `./`, no URL or `#L` suffix. */
  path: string;
  line?: number;
  /** The text as it appeared, for explanations. */
  raw: string;
  /** A frame of a stack trace (Python, JavaScript or Go), not a path in prose. */
  trace?: boolean;
  /**
   * Frames only: the order in which a maintainer reads them, innermost (where the error was
   * raised) first. Python prints the innermost frame last, JavaScript and Go first; 0 = innermost
   * frame of its trace.
   */
  depth?: number;
  /** Frames only: which trace of the issue it belongs to (a chained error prints one per cause). */
  block?: number;
  /** Frames only: the function the frame is in, when the trace says (`in total`, `at refund (`). */
  fn?: string;
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
  /**
   * Plain words of the title (`SSM parameters are not returned` → `SSM`, `parameters`,
   * `returned`… minus common words): a part of the project may go by one (`services/ssm/`).
   */
  titleWords: string[];
  /** Python imports in the issue's code (`from pkg.mod import Name`, `import pkg.mod`). */
  imports: { module: string; names: string[] }[];
  /**
   * The symbols (`identifiers`, parts of `dotted`) that the title names: what the reporter put
   * first is what the issue is about (`` `bulk_update()` ignores `batch_size` ``).
   */
  titleNames: string[];
  /**
   * The symbols that appear only inside fenced code blocks (a reproducer's imports and setup),
   * never in the title or the prose around them: context, more than subject.
   */
  codeOnlyNames: string[];
}

const PY_TRACE = /File "([^"]+)", line (\d+)(?:, in ([\w<>.]+))?/g;
/** Python imports as typed in an issue's code (also after a `>>> ` prompt). */
const ISSUE_PY_FROM =
  /^[ \t]*(?:>>>[ \t]*|\.\.\.[ \t]*)?from[ \t]+([A-Za-z_][\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)/gm;
const ISSUE_PY_IMPORT =
  /^[ \t]*(?:>>>[ \t]*|\.\.\.[ \t]*)?import[ \t]+([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*)[ \t]*$/gm;
/** `at fn (path:line:col)`, `at path:line:col` (JavaScript), `\tpath.go:123 +0x1f` (Go). */
const JS_TRACE = /^\s*at (?:(.*?) ?\()?((?:[A-Za-z]:)?[^\s()]+?):(\d+)(?::\d+)?\)?\s*$/gm;
const GO_TRACE = /^\s+(\/?[^\s:]+\.go):(\d+)(?: \+0x[0-9a-f]+)?\s*$/gm;
const OPTION = /(?<![\w-])--([a-z][a-z0-9]*(?:[-_][a-z0-9]+)*)(?![\w-])/gi;
const ERROR_LINE =
  /^\s*(?:E\s+)?(?:[\w.]*(?:Error|Exception|Warning|Panic)|(?:[a-z_]\w*\.)+[A-Z]\w*|panic|error|fatal|FATAL|ERROR|Error|WARNING|warning)(?:\[\w+\])?:\s*(.{8,200}?)\s*$/gm;
/** A log line of a level that reports a problem: `[WARNING]: …`, `[ERROR] …`. */
const LOG_LINE = /^\s*\[(?:ERROR|WARNING|WARN|FATAL|CRITICAL)\]:?\s+(.{8,200}?)\s*$/gm;
/**
 * A logger's record of a problem, in the formats Python's `logging` and its usual
 * configurations print (the default, `ERROR:pkg.mod:message`, is an `ERROR_LINE`):
 * `… - pkg.mod - ERROR - message` (`asctime - name - levelname - message`),
 * `… | ERROR    | pkg.mod:fn:12 - message` (loguru), `ERROR    pkg.mod:file.py:12 message`
 * (pytest's captured log).
 */
const LOG_RECORDS = [
  /\s[-|]\s*(?:ERROR|WARNING|WARN|CRITICAL|FATAL)\s*[-|]\s*(?:[\w.<>-]+:[\w<>.-]+:\d+\s+-\s+)?(.{8,200}?)\s*$/gm,
  /^\s*(?:ERROR|WARNING|CRITICAL)\s{2,}[\w.-]+:[\w.-]+:\d+\s+(.{8,200}?)\s*$/gm,
];
/** A validation error as pydantic prints it: `Value error, message [type=value_error, …]`. */
const VALIDATION_ERROR = /^\s*(?:Value error|Assertion failed), (.{8,200}?)\s*(?:\[type=.*)?$/gm;
/**
 * A quoted sentence; in double quotes it may hold an apostrophe (`"can't convert to float"`),
 * in single quotes a double quote. The opening quote follows a space, `(`, `:` or `=`, so that
 * the apostrophes of prose (`don't … it's`) do not pair up.
 */
const QUOTED =
  /(?:^|[\s(:=])(?:"([^"\n]{12,160})"|“([^“”\n]{12,160})”|'([^'\n]{12,160})'|‘([^‘’\n]{12,160})’)/g;
const DOTTED = /(?<![\w.$/-])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)(?![\w$/-])/g;
/** A noun a maintainer puts after the name of a part of the code ("the utc plugin"). */
const PART_NOUN =
  /\b([A-Za-z][\w-]{2,40})\s+(?:plugin|module|package|command|subcommand|component|middleware|extension|backend|driver|adapter|handler|parser|formatter|loader|provider|transport|resolver|balancer|codec|locale|option|setting|hook|filter|field|widget|card|theme|generator)s?\b/gi;
/** Commands a reporter types (a backticked line that starts with one is a command line). */
const COMMANDS = (
  'python python3 pip pip3 conda docker npm npx yarn node git sudo apt apt-get cd make poetry ' +
  'uv brew'
).split(' ');
/**
 * Words before a part noun that name the reporter's tools or what they did, not a part of the
 * project: "the docker command", "the aws cli command", "to run commands", "the python package".
 */
const TOOL_WORDS = new Set(
  [
    ...COMMANDS,
    'run runs running ran use using call cli shell bash zsh terminal console system user',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Options every command-line tool has: the reporter ran `tool --version` to say which version
 * they have. They are the subject only when the title names them.
 */
const EVERY_TOOLS = new Set(['--version', '--help']);
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
  // Node prints the frames of ES modules as file URLs (`file:///app/node_modules/x/lib/a.js:3:9`).
  if (/^file:\/\//i.test(raw)) {
    const local = pathFromToken(decodeURIComponent(raw.slice('file://'.length)));
    return local && { ...local, raw };
  }
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
// With a lower-case letter: `A2887D2` is a hex string, not a class (`X509Certificate` is one).
const PASCAL = /^(?=.*[a-z])[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*$/;
const SNAKE = /^[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+$/;
const SCREAMING = /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/;

function identifiersIn(text: string, fromCode: boolean): string[] {
  const out: string[] = [];
  // `image(s)` in prose is a plural, not a call.
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*(\((?!s\)))?/g)) {
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

/**
 * Words that are never a project's own symbol: keywords and builtins of Python and JavaScript
 * (`from`, `import`, `str`, `TypeError`, `Object`). Looking for their "definition" finds noise
 * (`defines \`from\``), and a folder named like one (`_import/`) is not what the issue names.
 */
const NOT_SYMBOLS = new Set(
  (
    'from import export return const let var function class new this typeof instanceof async ' +
    'await while for if elif else switch case break continue default try catch except finally ' +
    'throw raise delete void yield null undefined true false def with pass lambda global nonlocal ' +
    'assert del not and or is None True False self cls print str int float bool bytes list dict ' +
    'set tuple object type range len open iter next map filter zip sum min max abs any all ' +
    'isinstance issubclass getattr setattr hasattr delattr super property staticmethod ' +
    'classmethod repr hash format sorted reversed enumerate vars dir callable round frozenset ' +
    'bytearray slice Exception BaseException TypeError ValueError KeyError AttributeError ' +
    'IndexError RuntimeError ImportError ModuleNotFoundError NotImplementedError OSError IOError ' +
    'FileNotFoundError PermissionError ZeroDivisionError OverflowError RecursionError ' +
    'StopIteration AssertionError NameError UnboundLocalError SyntaxError IndentationError ' +
    'UnicodeError UnicodeEncodeError UnicodeDecodeError LookupError ArithmeticError TimeoutError ' +
    'ConnectionError Warning UserWarning DeprecationWarning FutureWarning RuntimeWarning ' +
    'PendingDeprecationWarning KeyboardInterrupt SystemExit MemoryError RecursionError Object ' +
    'Array String Number Boolean Promise Error RangeError ReferenceError JSON Math Date RegExp ' +
    'Symbol NaN Infinity parseInt parseFloat'
  ).split(' '),
);

/** The text without its links (their words are addresses, not what the issue is about). */
export const withoutLinks = (text: string): string => text.replace(URL, ' ');

const PY_FRAME_LINE = /^\s*File "[^"]+", line \d+/;
const JS_FRAME_LINE = /^\s*at (?:.*? \()?(?:[A-Za-z]:)?[^\s()]+?:\d+(?::\d+)?\)?\s*$/;

/**
 * The text without the source lines a Python traceback prints under each frame: they are the
 * frames' own code (already evidence through the frames), not names the reporter chose.
 */
export function withoutFrameCode(text: string): string {
  const lines = text.split('\n');
  return lines
    .filter((line, i) => {
      const previous = lines[i - 1] ?? '';
      return !(PY_FRAME_LINE.test(previous) && /^\s+\S/.test(line) && !/^\s*File "/.test(line));
    })
    .join('\n');
}

/**
 * The text without the frame lines of stack traces (`File "x.py", line 3, in parse`,
 * `at Foo.parse (x.js:3:9)`): their paths and functions are evidence as frames (the innermost
 * above its callers), not again as names the reporter chose, which would count each caller's
 * function as a definition the issue names.
 */
function withoutFrameHeaders(text: string): string {
  return text
    .split('\n')
    .filter((line) => !PY_FRAME_LINE.test(line) && !JS_FRAME_LINE.test(line))
    .join('\n');
}

/** Whether a name can be a project's own symbol (not a keyword or a builtin of the language). */
export const isSymbolName = (name: string): boolean => !NOT_SYMBOLS.has(name);

/** The text without its fenced code blocks (an unclosed fence runs to the end). */
function withoutFences(text: string): string {
  const lines = text.split('\n');
  const fenced = fencedLines(lines);
  return lines.filter((_, i) => !fenced[i]).join('\n');
}

/** Links: their words are an address, not code (`/files/123/test.zip`, `stable/examples/`). */
const URL = /\bhttps?:\/\/[^\s)>\]"'`]+/g;

/** Frames of each trace style, in text order, with the depth a maintainer reads them in. */
function traceFrames(text: string): PathMention[] {
  const out: PathMention[] = [];
  // Each style: pattern, reading order, and the groups of path, line and function.
  const styles: [RegExp, 'innermost-last' | 'innermost-first', number, number, number?][] = [
    [PY_TRACE, 'innermost-last', 1, 2, 3],
    [JS_TRACE, 'innermost-first', 2, 3, 1],
    [GO_TRACE, 'innermost-first', 1, 2],
  ];
  for (const [re, order, pathGroup, lineGroup, fnGroup] of styles) {
    // A new Python trace starts at each "Traceback (most recent call last)" (chained errors).
    const starts =
      order === 'innermost-last'
        ? [...text.matchAll(/Traceback \(most recent call last\)/g)].map((m) => m.index ?? 0)
        : [];
    const frames: { mention: PathMention; block: number }[] = [];
    for (const m of text.matchAll(re)) {
      const raw = m[pathGroup] ?? '';
      const mention = pathFromToken(raw);
      if (!mention || /^(node:|internal\/)/.test(raw)) continue;
      const block = starts.filter((s) => s < (m.index ?? 0)).length;
      // `TabManager.getTabMessage`, `Object.<anonymous>`, `new Foo`: the function's own name.
      const fn = /([A-Za-z_$][\w$]*)\s*(?:\[as \w+\])?$/.exec(
        fnGroup !== undefined ? (m[fnGroup] ?? '') : '',
      )?.[1];
      frames.push({
        mention: {
          ...mention,
          line: Number(m[lineGroup]),
          trace: true,
          ...(fn && fn !== 'module' && fn !== 'anonymous' ? { fn } : {}),
        },
        block,
      });
    }
    for (const f of frames) {
      const sameBlock = frames.filter((g) => g.block === f.block);
      const at = sameBlock.indexOf(f);
      out.push({
        ...f.mention,
        depth: order === 'innermost-last' ? sameBlock.length - 1 - at : at,
        block: f.block,
      });
    }
  }
  return out;
}

export function extractIssueRefs(issueText: string): IssueRefs {
  const text = visibleIssueText(issueText);
  const paths: PathMention[] = traceFrames(text);
  for (const token of text.split(TOKEN_SPLIT)) {
    const mention = token ? pathFromToken(token) : undefined;
    const known = (p: PathMention): boolean =>
      p.path === mention?.path && (p.line === mention.line || mention.line === undefined);
    if (mention && !paths.some(known)) paths.push(mention);
  }

  const identifiers = new Set<string>();
  const noLinks = withoutFrameHeaders(withoutFrameCode(withoutLinks(text)));
  const codeSpans = [...noLinks.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');
  // A short span is code (`sqlfluff fix`, `save_as()`); a longer one is a command line or a
  // sentence (`pip install pylint astroid==2.9.1`): only code-shaped names count there.
  const isCode = (span: string): boolean => span.trim().split(/\s+/).length <= 2;
  for (const span of codeSpans)
    for (const id of identifiersIn(span, isCode(span))) identifiers.add(id);
  const prose = noLinks.replace(/`[^`\n]+`/g, ' ');
  for (const id of identifiersIn(prose, false)) identifiers.add(id);
  // A path's own words are not identifiers (`refund.ts` is not a call to `refund`).
  const pathWords = new Set(paths.flatMap((p) => p.path.split(/[/.]/)));
  const ids = [...identifiers].filter((id) => !pathWords.has(id) && isSymbolName(id)).sort();
  const dotted = new Set<string>();
  for (const m of noLinks.matchAll(DOTTED)) {
    const d = m[1] ?? '';
    if (COMMON_DOTTED.test(d) || FILE_EXTENSION.test(d)) continue;
    if (d.split('.').some((part) => part.length < 2)) continue;
    dotted.add(d);
  }
  const names = new Set<string>(ids);
  for (const span of codeSpans) {
    const word = span.trim();
    if (/^[A-Za-z][\w-]{2,40}$/.test(word) && isSymbolName(word)) names.add(word);
  }
  for (const tag of titleTags(text)) names.add(tag);
  for (const m of noLinks.matchAll(PART_NOUN)) {
    const word = m[1] ?? '';
    const lower = word.toLowerCase();
    if (!COMMON_WORDS.has(lower) && !TOOL_WORDS.has(lower) && isSymbolName(word)) names.add(word);
  }
  const imports: IssueRefs['imports'] = [];
  for (const m of text.matchAll(ISSUE_PY_FROM)) {
    const names = (m[2] ?? '')
      .replace(/[()\\]/g, ' ')
      .split(',')
      .map((n) => n.trim().split(/\s+/)[0] ?? '')
      .filter((n) => /^\w+$/.test(n));
    if (names.length > 0) imports.push({ module: m[1] ?? '', names });
  }
  for (const m of text.matchAll(ISSUE_PY_IMPORT))
    for (const mod of (m[1] ?? '').split(','))
      imports.push({ module: mod.trim().split(/\s+/)[0] ?? '', names: [] });
  const title = withoutLinks(titleOf(text));
  const titleTokens = new Set(title.split(/[^\w$]+/));
  const symbols = new Set([
    ...ids,
    ...[...dotted].flatMap((d) => d.split('.').filter((p) => p.length >= 3 && isSymbolName(p))),
  ]);
  const proseTokens = new Set(withoutFences(noLinks).split(/[^\w$]+/));
  return {
    paths,
    titleNames: [...symbols].filter((s) => titleTokens.has(s)).sort(),
    codeOnlyNames: [...symbols].filter((s) => !proseTokens.has(s)).sort(),
    imports: imports.filter((i) => /^[A-Za-z_][\w.]*$/.test(i.module)),
    identifiers: ids,
    options: [...new Set([...text.matchAll(OPTION)].map((m) => `--${m[1] ?? ''}`))]
      .filter((o) => !EVERY_TOOLS.has(o) || title.includes(o))
      .sort(),
    messages: extractMessages(text),
    dotted: [...dotted].sort(),
    names: [...names].sort(),
    titleWords: titleWords(text).filter((w) => !names.has(w)),
  };
}

/** A title's leading tags: `[Globo] [Bug] Videos fail`. */
const TITLE_TAGS = /^\s*(?:\[[^\]\n]{1,40}\]\s*)+/;

/** Tags that say what kind of issue it is, not which part of the project. */
const GENERIC_TAGS = new Set(
  (
    'bug bugs feature features request question help docs doc documentation enhancement proposal ' +
    'rfc wip discussion report regression security performance perf breaking fix improvement idea ' +
    'suggestion support site broken new major minor critical urgent draft meta chore test tests ' +
    'ci build release todo info warning error crash issue problem'
  ).split(' '),
);

/**
 * The parts a title's leading tags name: `[Globo] Videos fail`, `[ARD:mediathek]`, `[IAM] …`,
 * `[cbc.ca]` (a site: its name without the domain's end). Tags that say what kind of issue it
 * is (`[Bug]`, `[Feature Request]`) name nothing.
 */
export function titleTags(text: string): string[] {
  const title = TITLE_TAGS.exec(titleOf(text))?.[0] ?? '';
  const out: string[] = [];
  for (const m of title.matchAll(/\[([^\]]+)\]/g))
    for (const part of (m[1] ?? '').split(/[:/,]/)) {
      const word = part.trim().split('.')[0]?.trim() ?? '';
      if (!/^[A-Za-z][\w-]{2,40}$/.test(word)) continue;
      if (GENERIC_TAGS.has(word.toLowerCase()) || COMMON_WORDS.has(word.toLowerCase())) continue;
      if (isSymbolName(word)) out.push(word);
    }
  return out;
}

/** Words of titles that name no part: what goes wrong, and how. */
const TITLE_NOISE = new Set(
  (
    'fix fixed fixes fails failed failing fail error errors bug bugs issue issues problem crash ' +
    'crashes support supported supports add added adding allow allows make makes cannot can ' +
    'does doesn work working works broken wrong incorrect missing unable when after before while ' +
    'should would could get gets set sets return returns returned value values type types file ' +
    'files data option options request feature features improve improvement update updated ' +
    'version latest install installation run running runs how why there then than into only ' +
    'also just more less not but have has had was were will still even since via per out off'
  ).split(' '),
);

/** The title's plain words (after its tags) that may be the name of a part. */
function titleWords(text: string): string[] {
  const title = titleOf(text).replace(TITLE_TAGS, '');
  const out = new Set<string>();
  for (const m of title.matchAll(/(?<![\w.-])[A-Za-z][A-Za-z0-9]{2,30}(?![\w-]|\.\w)/g)) {
    const lower = m[0].toLowerCase();
    if (COMMON_WORDS.has(lower) || GENERIC_TAGS.has(lower) || TITLE_NOISE.has(lower)) continue;
    if (isSymbolName(m[0])) out.add(m[0]);
  }
  return [...out];
}

/**
 * A backticked span that is a sentence, not code (`` `No module named setuptools` ``): four
 * words or more, of letters, with nothing of a command line or an expression in it.
 */
function isSentence(span: string): boolean {
  const words = span.trim().split(/\s+/);
  if (words.length < 4 || /[=(){}[\]<>$\\/]|--|\.\w|^\s*[a-z][\w-]*\s+-/.test(span)) return false;
  if (COMMANDS.includes(words[0] ?? '')) return false;
  return words.filter((w) => /^[A-Za-z][a-z']*[,.:;!?]?$/.test(w)).length >= 0.75 * words.length;
}

/**
 * Error messages: `XError: message` lines (also pytest's `E   XError: …`), log records of a
 * problem, validation errors, quoted sentences of three words or more, and backticked sentences.
 */
function extractMessages(text: string): string[] {
  const out = new Set<string>();
  for (const re of [ERROR_LINE, LOG_LINE, ...LOG_RECORDS, VALIDATION_ERROR])
    for (const m of text.matchAll(re))
      // `ERROR:pkg.loader:message`: the logger's name is no part of the message.
      out.add((m[1] ?? '').trim().replace(/^[\w.<>-]+:(?=[^\s/])/, ''));
  for (const m of text.matchAll(/`([^`\n]+)`/g))
    if (isSentence(m[1] ?? '')) out.add((m[1] ?? '').trim());
  for (const m of text.matchAll(QUOTED)) {
    const quoted = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim();
    if (quoted.split(/\s+/).length >= 3 && /[a-z]/i.test(quoted)) out.add(quoted);
  }
  return [...out].filter((msg) => msg.length >= 8).slice(0, 12);
}
