/**
 * Which files an issue is about, best first, each with its score and the reasons for it, the
 * way a maintainer reads an issue: stack-trace frames and paths it names first; then grep-exact
 * evidence — the files that DEFINE the symbols it names, raise the message it quotes, declare the
 * `--option` it names, or are named like the part it names (`weekOfYear` →
 * `src/plugin/weekOfYear/index.js`, `pkg.mod` → `pkg/mod.py`); then word overlap (BM25 over
 * path and content, scaled so it orders files rather than outweighs evidence). Tests, docs,
 * changelogs, examples, templates, CI config and build output are demoted unless the issue is
 * about them or names them; the imports and importers of the best source files get a small
 * boost (one hop). Equal scores are ordered by structure: a definition before a mention, source
 * before the rest, shallower before deeper, smaller before larger, then by path.
 */
import { createBm25Index, scoreBm25Counts } from './bm25.js';
import type { RepoMap, SkippedFile } from './build-repo-map.js';
import {
  ABOUT_FACTOR,
  classifyPath,
  repoLayout,
  DEMOTION,
  kindsTheIssueIsAbout,
  type PathKind,
} from './classify-path.js';
import {
  filesForDotted,
  createNameIndex,
  normaliseName,
  type NameIndex,
  type NameMatch,
  importGraph,
  pythonDefinition,
  pythonModuleFile,
  pythonModules,
} from './code-graph.js';
import { groupBy } from './group-by.js';
import { readIssue } from './issue-template.js';
import { titleOf } from './issue-text.js';
import {
  extractIssueRefs,
  isSymbolName,
  titleTags,
  withoutLinks,
  type IssueRefs,
} from './extract-issue-refs.js';
import {
  definitionPattern,
  escapeRegExp,
  filesHolding,
  findDefinitions,
  findMessage,
  findUses,
  findOption,
  lineAt,
  matchNear,
  type Hit,
} from './grep-code.js';
import {
  splitWords,
  termCounts,
  termQuery,
  type TermCache,
  type TermCounts,
  type TermQuery,
} from './split-words.js';

/**
 * The kinds of evidence a score is made of (`RankedFile.points`): what the issue names (a path,
 * a frame, a file name), what a file defines, raises or declares, the names its path matches,
 * word overlap, and the hop through the imports.
 */
export type EvidenceKind =
  | 'namedPath'
  | 'tracePath'
  | 'traceCaller'
  | 'namedBasename'
  | 'literalName'
  | 'namedDirectory'
  | 'definesIdentifier'
  | 'usesName'
  | 'definesMember'
  | 'readsSetting'
  | 'raisesMessage'
  | 'declaresOption'
  | 'pathMatchesName'
  | 'titleWord'
  | 'dottedModule'
  | 'importedName'
  | 'bm25Path'
  | 'bm25Content'
  | 'importHop';

export interface RankedFile {
  path: string;
  score: number;
  /** The score by kind of evidence (after demotion), summing to `score` before rounding. */
  points: Partial<Record<EvidenceKind, number>>;
  /** Why it ranks, most important first (for `autofix context` and the run log). */
  reasons: string[];
  /** 1-based lines the issue points at (stack-trace lines, definitions of named identifiers). */
  focusLines: number[];
}

export interface Ranking {
  files: RankedFile[];
  refs: IssueRefs;
  /** The issue's terms (BM25's query) and the pattern that finds them in code. */
  query: TermQuery;
  /** Files the issue names that the map skipped (binary, too large, …): never silently lost. */
  unavailable: SkippedFile[];
}

export const WEIGHTS = {
  namedPath: 100,
  /** The innermost frame of a stack trace that is in the repository (where the error was raised). */
  tracePath: 100,
  /** Any other frame in the repository (a caller). */
  traceCaller: 60,
  namedBasename: 40,
  dottedModule: 40,
  namedDirectory: 8,
  definesIdentifier: 30,
  /** A name nothing defines, used as a key, an instance attribute or a parameter. */
  usesName: 15,
  /** Factor for the definition of an exception type the issue names. */
  exceptionType: 0.5,
  /** Factor for the definition of `Name` when the issue's `Name3` is defined nowhere. */
  unversioned: 0.5,
  /** The file whose class `Class` defines the `method` of a dotted `Class.method`. */
  definesMember: 30,
  raisesMessage: 30,
  declaresOption: 25,
  /** The modules that read a setting the issue names (`settings.FOO`, `config.foo`). */
  readsSetting: 20,
  pathMatchesName: 25,
  /** Factor for the definition of a symbol the title names (the reporter put it first). */
  titleName: 1.5,
  /** Factor (of `namedBasename`) for the source files that hold a missing file's name. */
  literalName: 0.5,
  /** Factor for a module or a part's name (file or folder) the title names, when it is one part. */
  titlePart: 2,
  /** Factor for a symbol only the issue's code blocks hold (a reproducer's setup). */
  codeOnly: 0.6,
  /** Factor for a plain title word that is a file or folder name (not a code-shaped name). */
  titleWord: 0.5,
  /** The file that defines a name the issue imports (`from pkg import Name`) or dots into. */
  importedName: 35,
  /**
   * BM25 scores are scaled so that the best file gets this many points. The content's share was
   * chosen on the localization bench by `bench:context-weights` (leave one repository out): the
   * best overlap outweighs a definition or a path that matches a name, never a named file or frame.
   */
  bm25Path: 10,
  bm25Content: 60,
  /** Share of a top source file's score its imports and importers receive (one hop). */
  importHop: 0.15,
} as const;

/**
 * An exception type (`FieldError`, `pkg.errors.InvalidDicomError`): the module that defines it
 * is seldom where it is raised or fixed; its definition counts for less and its module path
 * for nothing (the traceback, the message and the names around say where it was raised).
 */
const EXCEPTION_TYPE = /(Error|Exception|Warning)$/;

/** The name of a data, configuration or output file (not a program's: that is the reporter's own). */
const DATA_FILE =
  /\.(json|ya?ml|toml|ini|cfg|conf|txt|csv|tsv|xml|html?|png|jpe?g|gif|svg|pdf|mp[34]|wav|log|lock|db|sqlite|pkl|pt|onnx|h5|npy|npz|zip|tar|gz)$/i;
/** Missing files whose names are looked for (a pasted log names hundreds). */
const MAX_MISSING_FILES = 8;
/** A file's name held as a literal by more source files than this is a common name. */
const MAX_LITERAL_HOLDERS = 4;

/** Evidence that names more files than this says nothing about any of them. */
const MAX_HITS = 12;
const HOP_SOURCES = 5;

/** Files whose path ends with the most trailing segments of `mention` (at least two). */
function longestTail<T extends { path: string }>(files: readonly T[], mention: string): T[] {
  const want = mention.split('/');
  let best: T[] = [];
  let bestLength = 1;
  for (const f of files) {
    const have = f.path.split('/');
    let n = 0;
    while (
      n < have.length &&
      n < want.length &&
      have[have.length - 1 - n] === want[want.length - 1 - n]
    )
      n++;
    if (n > bestLength) {
      best = [f];
      bestLength = n;
    } else if (n === bestLength && n > 1) best.push(f);
  }
  return best;
}

/** Receivers and globals: `self.fail` names `fail`, not a definition of `self`. */
const RECEIVERS = new Set(
  'self this cls super window document console module exports process require global globalThis'.split(
    ' ',
  ),
);

const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/**
 * A path on the reporter's machine that is not the repository's: absolute (`/`, `~`, a drive),
 * or inside an installed package (`site-packages`, `dist-packages`, `node_modules`). Resolved by
 * its tail when the tail is here; never by its file name alone.
 */
function isForeignPath(path: string): boolean {
  return (
    /^(\/|~|[A-Za-z]:)/.test(path) ||
    /(^|\/)(site-packages|dist-packages|node_modules)\//.test(path)
  );
}

const round = (n: number): number => Math.round(n * 100) / 100;
const short = (s: string, n = 40): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The mentions of one thing in a file (a path in several forms, a module dotted into). */
interface Mentions {
  /** The best mention's points: a thing named twice is named, not twice as much. */
  points: number;
  /** The best mention's kind. */
  kind: EvidenceKind;
  reasons: string[];
  lines: (number | undefined)[];
  named: boolean;
}

function mentionsByFile(): {
  byFile: Map<string, Mentions>;
  note(
    path: string,
    kind: EvidenceKind,
    points: number,
    reason: string,
    line: number | undefined,
    named: boolean,
  ): void;
} {
  const byFile = new Map<string, Mentions>();
  return {
    byFile,
    note(path, kind, points, reason, line, named) {
      const known = byFile.get(path) ?? {
        points: 0,
        kind,
        reasons: [],
        lines: [],
        named: false,
      };
      if (points > known.points) {
        known.points = points;
        known.kind = kind;
      }
      known.named ||= named;
      known.reasons.push(reason);
      known.lines.push(line);
      byFile.set(path, known);
    },
  };
}

interface Entry {
  path: string;
  kind: PathKind;
  depth: number;
  bytes: number;
  score: number;
  points: Partial<Record<EvidenceKind, number>>;
  /** Points from structural evidence (named, defines, raises, path match): a definition tier. */
  evidence: number;
  /** Named explicitly (path, trace, file name): never demoted. */
  named: boolean;
  reasons: string[];
  focusLines: Set<number>;
}

const KIND_LABEL: Record<PathKind, string> = {
  source: 'source',
  test: 'test',
  docs: 'docs',
  changelog: 'changelog',
  example: 'example',
  meta: 'issue template/CI config',
  build: 'build output/generated',
  vendored: 'vendored',
  config: 'config/tooling',
  declarations: 'type declarations',
};

/**
 * Folders that hold at least 40 % of the source files, at the top or under `src/`/`lib/`: the
 * project's own package (`astroid/`, `src/sqlfluff/`), which every issue names.
 */
function projectPackages(entries: readonly { path: string; kind: PathKind }[]): Set<string> {
  const sources = entries.filter((e) => e.kind === 'source');
  const counts = new Map<string, number>();
  for (const e of sources) {
    const segments = e.path.split('/');
    for (let i = 1; i < Math.min(segments.length, 3); i++) {
      const dir = segments.slice(0, i).join('/');
      counts.set(dir, (counts.get(dir) ?? 0) + 1);
    }
  }
  const out = new Set<string>();
  if (sources.length < 20) return out;
  for (const [dir, count] of counts)
    if (count >= 0.4 * sources.length && (!dir.includes('/') || /^(src|lib)\/[^/]+$/.test(dir)))
      out.add(dir);
  // A Python project's importable package (`fastapi/`, `localstack-core/localstack/`): the
  // largest package whose parent is none, when it holds a quarter of the source, even where
  // documentation examples or a front end hold more files.
  const inits = new Set(entries.filter((e) => e.path.endsWith('/__init__.py')).map((e) => e.path));
  const isPackage = (dir: string): boolean => inits.has(`${dir}/__init__.py`);
  let largest: [string, number] | undefined;
  for (const [dir, count] of counts) {
    const parent = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : undefined;
    if (!isPackage(dir) || (parent !== undefined && isPackage(parent))) continue;
    if (!largest || count > largest[1]) largest = [dir, count];
  }
  if (largest && largest[1] >= 0.25 * sources.length) out.add(largest[0]);
  return out;
}

/**
 * The names the ranking looks up in the code: the symbols the issue names (`Class.method`
 * counts both parts; receivers like `self` are not names), and its `Class.method` pairs.
 */
export function namesToLocate(refs: IssueRefs): {
  named: string[];
  classMembers: { cls: string; member: string }[];
  /** Names without their version number (`unversioned`), looked up when the named one is not. */
  unversioned: string[];
} {
  const symbols = new Set(refs.identifiers);
  for (const d of refs.dotted)
    for (const part of d.split('.')) if (part.length >= 3 && isSymbolName(part)) symbols.add(part);
  for (const r of RECEIVERS) symbols.delete(r);
  const classMembers = refs.dotted.flatMap((d) => {
    const parts = d.split('.');
    return parts.slice(0, -1).flatMap((cls, i) => {
      const member = parts[i + 1] ?? '';
      return /^[A-Z]\w*$/.test(cls) && /^\w{3,}$/.test(member) && !RECEIVERS.has(cls)
        ? [{ cls, member }]
        : [];
    });
  });
  // At most 60 names (a pasted log names hundreds): the title's first.
  const inTitle = new Set(refs.titleNames);
  const named = [
    ...[...symbols].filter((n) => inTitle.has(n)),
    ...[...symbols].filter((n) => !inTitle.has(n)),
  ].slice(0, 60);
  return { named, classMembers, unversioned: named.flatMap((n) => unversioned(n) ?? []) };
}

/**
 * `PersonName3` → `PersonName`: a name with a version number at its end, which an old issue
 * may use after the code dropped it (Python 2/3 pairs, `V2` classes renamed when the old one
 * went).
 */
function unversioned(name: string): string | undefined {
  const m = /^([A-Za-z_]\w*?[A-Za-z_])[vV]?\d{1,2}$/.exec(name);
  return m?.[1] !== undefined && m[1].length >= 4 ? m[1] : undefined;
}

/** Every name of `namesToLocate`, for `namesIn`/`filesHolding`. */
export function locatedNames(refs: IssueRefs): string[] {
  const { named, classMembers, unversioned: bases } = namesToLocate(refs);
  return [
    ...named,
    ...classMembers.flatMap((c) => [c.cls, c.member]),
    ...bases,
    ...dataFileNames(refs),
  ];
}

/**
 * The names of the data files the prose names (`results.png`, not `/etc/x.cfg` nor a frame):
 * where one is not in the repository, the source files holding its name are looked for.
 */
const dataFileNames = (refs: IssueRefs): string[] =>
  [
    ...new Set(
      refs.paths
        .filter((m) => !m.trace && !isForeignPath(m.path) && DATA_FILE.test(m.path))
        .map((m) => basename(m.path)),
    ),
  ].slice(0, 2 * MAX_MISSING_FILES);

export interface RankOptions {
  /** `importSpecs` of the files that another thread already made, by path. */
  importSpecs?: ReadonlyMap<string, readonly string[]>;
  /**
   * The names of `locatedNames` each file holds (`namesIn`), that another thread already found,
   * by path; any other file is scanned here.
   */
  held?: ReadonlyMap<string, readonly string[]>;
  /**
   * Contents' counts of the issue's terms (`termCounts(content, termQuery(issueText))`) that
   * another thread already made, by path; any other file is counted here.
   */
  counted?: ReadonlyMap<string, TermCounts>;
}

export function rankFiles(map: RepoMap, text: string, options: RankOptions = {}): Ranking {
  // What the reporter wrote: the repository's issue template is the same in every issue.
  // The environment (versions, paths of an installation) is no evidence.
  const issueText = readIssue(text, map.files);
  const refs = extractIssueRefs(issueText);
  const query = termQuery(issueText);
  const terms = [...query.terms];
  const paths = map.files.map((f) => f.path);
  const layout = repoLayout(paths);
  /** The parts the title's tags name (`[Globo] …`). */
  const tags = titleTags(issueText);
  const entries: Entry[] = map.files.map((f) => ({
    path: f.path,
    kind: classifyPath(f.path, layout),
    depth: f.path.split('/').length,
    bytes: f.bytes,
    score: 0,
    points: {},
    evidence: 0,
    named: false,
    reasons: [],
    focusLines: new Set<number>(),
  }));
  const byPath = new Map(entries.map((e) => [e.path, e]));
  const add = (
    path: string,
    kind: EvidenceKind,
    points: number,
    reason: string,
    line?: number,
    opts: { evidence?: boolean; named?: boolean } = {},
  ): void => {
    const entry = byPath.get(path);
    if (!entry) return;
    entry.score += points;
    entry.points[kind] = (entry.points[kind] ?? 0) + points;
    if (opts.evidence !== false) entry.evidence += points;
    if (opts.named) entry.named = true;
    if (!entry.reasons.includes(reason)) entry.reasons.push(reason);
    if (line !== undefined) entry.focusLines.add(line);
  };
  /** One thing's mentions in a file: every reason said, `points` counted once. */
  const addMentions = (path: string, mention: Mentions, points: number): void =>
    mention.reasons.forEach((reason, i) =>
      add(path, mention.kind, i === 0 ? points : 0, reason, mention.lines[i], {
        named: mention.named,
      }),
    );
  // Grep-exact lookups go over program files: docs and build output mention names, never define them.
  const code = map.files.filter((f) => {
    const kind = byPath.get(f.path)?.kind;
    return kind === 'source' || kind === 'test' || kind === 'config' || kind === 'example';
  });
  const isSource = (f: { path: string }): boolean => byPath.get(f.path)?.kind === 'source';
  const sourceCount = (hits: readonly { path: string }[]): number =>
    Math.max(1, hits.filter(isSource).length);

  // 1. Paths the issue names, stack-trace frames first of all. A frame counts once per file, the
  // innermost frame in the repository (where the error was raised) above its callers.
  const unavailable: SkippedFile[] = [];
  // Every way a mention names a file ends with the file's name: only files of that name are tried
  // (a pasted log names hundreds of paths, a large repository has ten thousand files).
  const filesCalled = groupBy(map.files, (f) => basename(f.path));
  const skippedCalled = groupBy(map.skipped, (f) => basename(f.path));
  // The code files that hold each name, in one scan: the lookups below read only those.
  const holding = filesHolding(code, locatedNames(refs), options.held);
  const holders = (name: string): typeof code => holding.get(name) ?? [];
  const resolved = refs.paths.map((mention) => {
    const p = mention.path.replace(/^\/+/, '');
    const suffix = (f: string): boolean =>
      f === p || f.endsWith(`/${p}`) || mention.path.endsWith(`/${f}`);
    const called = filesCalled.get(basename(p)) ?? [];
    let exact = called.filter((f) => suffix(f.path));
    // An installed copy (`site-packages/pkg/mod.py`, `node_modules/pkg/lib/x.js`) or another
    // layout (`src/pkg/mod.py`): the files sharing the longest tail of at least two segments.
    if (exact.length === 0) exact = longestTail(called, p);
    // A frame in `fn` is not a file that never mentions `fn`: the user's own `dicom.py`, a
    // bundle's `index.js`, another version of the file.
    const fn = mention.fn;
    const candidates = exact.length;
    if (mention.trace && fn !== undefined) exact = exact.filter((f) => f.content.includes(fn));
    return { mention, p, suffix, exact, refuted: candidates > 0 && exact.length === 0 };
  });
  // …and its frames that name no function are not that file either, unless another of its
  // frames names a function the file holds (a trace from an older version of the same file).
  const confirmed = new Set(
    resolved
      .filter((r) => r.mention.fn !== undefined && r.exact.length > 0)
      .map((r) => r.mention.path),
  );
  const refuted = new Set(
    resolved.filter((r) => r.refuted && !confirmed.has(r.mention.path)).map((r) => r.mention.path),
  );
  for (const r of resolved) if (r.mention.trace && refuted.has(r.mention.path)) r.exact = [];
  // Per trace (a chained error prints one per cause, each raised somewhere), its innermost
  // frame in the repository.
  const innermost = new Map<number, number>();
  for (const r of resolved) {
    if (!r.mention.trace || r.exact.length === 0) continue;
    const block = r.mention.block ?? 0;
    innermost.set(block, Math.min(innermost.get(block) ?? Infinity, r.mention.depth ?? 0));
  }
  const frames = new Map<
    string,
    { points: number; reason: string; lines: number[]; inner: boolean }
  >();
  const prose = mentionsByFile();
  // The project's own package (`astroid/`, `src/sqlfluff/`, `fastapi/`) is named in every issue:
  // neither its folder nor a class of its name (`class FastAPI`) is evidence.
  const projectDirs = projectPackages(entries);
  let names: NameIndex | undefined;
  const onePart = (matches: readonly NameMatch[]): boolean =>
    new Set(matches.map((m) => m.dir ?? m.path)).size === 1;
  // The files of the one part a name of the title names (`[Globo] …`, `` `sonyliv` ``): a
  // caller frame there is the trace passing through what the issue is about (an extractor
  // whose error the shared code raised), as telling as the innermost frame.
  let titled: Set<string> | undefined;
  const titleFiles = (): Set<string> => {
    if (titled) return titled;
    titled = new Set();
    const index = (names ??= createNameIndex(paths));
    for (const name of [...refs.titleNames, ...tags, ...refs.titleWords]) {
      const matches = index.filesNamed(name);
      const own = matches.filter((m) => m.how === 'file' || !projectDirs.has(m.dir ?? ''));
      if (own.length > 0 && onePart(own)) for (const m of own) titled.add(m.path);
    }
    return titled;
  };
  /** The names of missing files looked for so far (each once: `a/x.json` and `x.json`). */
  const missing = new Set<string>();
  for (const { mention, p, suffix, exact, refuted: wrongFile } of resolved) {
    if (wrongFile || (mention.trace && refuted.has(mention.path))) continue;
    if (exact.length > 0 && mention.trace) {
      const innermostFrame = (mention.depth ?? 0) === innermost.get(mention.block ?? 0);
      for (const f of exact) {
        const inTitlePart = !innermostFrame && titleFiles().has(f.path);
        const inner = innermostFrame || inTitlePart;
        const points = (inner ? WEIGHTS.tracePath : WEIGHTS.traceCaller) / exact.length;
        const known = frames.get(f.path);
        const lines = [
          ...(known?.lines ?? []),
          ...(mention.line !== undefined ? [mention.line] : []),
        ];
        if (known && known.points >= points) {
          known.lines = lines;
          continue;
        }
        frames.set(f.path, {
          inner,
          points,
          reason: `named in a stack trace${innermostFrame ? ', innermost frame in the repository' : inTitlePart ? ', in the part the title names' : ''} (${short(mention.raw, 60)})`,
          lines,
        });
      }
      continue;
    }
    if (exact.length > 0) {
      for (const f of exact)
        prose.note(
          f.path,
          'namedPath',
          WEIGHTS.namedPath / exact.length,
          `named in the issue (${mention.raw})`,
          mention.line,
          true,
        );
      continue;
    }
    const skipped = skippedCalled.get(basename(p))?.find((s) => suffix(s.path));
    if (skipped) {
      if (!unavailable.includes(skipped)) unavailable.push(skipped);
      continue;
    }
    // A frame that is no file here is another package's (`site-packages/numpy/core.py`), not
    // every `core.py` of the repository.
    // Nor is an absolute path outside the repository (`/etc/ansible/ansible.cfg`,
    // `/opt/conda/lib/python3.9/site-packages/torch/__init__.py`) every file of that name here.
    if (mention.trace || isForeignPath(mention.path)) continue;
    const sameName = p.includes('.') ? (filesCalled.get(basename(p)) ?? []) : [];
    for (const f of sameName)
      prose.note(
        f.path,
        'namedBasename',
        WEIGHTS.namedBasename / sameName.length,
        `file name named in the issue (${mention.raw})`,
        mention.line,
        sameName.length <= 3,
      );
    // A file that is not here (`setup.cfg`, `results.png`): made, read or written by the few
    // source files that hold its name as a literal. A missing program file is the reporter's own.
    if (
      sameName.length === 0 &&
      DATA_FILE.test(p) &&
      !missing.has(basename(p)) &&
      missing.size < MAX_MISSING_FILES
    ) {
      missing.add(basename(p));
      const literal = new RegExp(`["'/]${escapeRegExp(basename(p))}["']`);
      const writers = holders(basename(p)).filter((f) => isSource(f) && literal.test(f.content));
      if (writers.length > 0 && writers.length <= MAX_LITERAL_HOLDERS)
        for (const f of writers)
          add(
            f.path,
            'literalName',
            (WEIGHTS.namedBasename * WEIGHTS.literalName) / writers.length,
            `holds the name of the file the issue names (${mention.raw}), which is not in the repository`,
          );
    }
    if (sameName.length === 0 && !p.includes('.')) {
      const under = map.files.filter((f) => f.path.startsWith(`${p}/`));
      for (const f of under)
        add(
          f.path,
          'namedDirectory',
          WEIGHTS.namedDirectory / Math.max(1, Math.log2(under.length)),
          `in the directory the issue names (${p}/)`,
        );
    }
  }

  // A file counts once however often, and in whichever forms, the prose names it (`a.py`,
  // `pkg/a.py:12`, the script of a command line); a caller frame the prose also names is the
  // same mention again (the script the reporter ran, the line they point at). The innermost
  // frame and a mention in the prose are two things the issue says: they add up.
  for (const [path, mention] of prose.byFile) {
    const frame = frames.get(path);
    const points =
      frame && !frame.inner ? Math.max(0, mention.points - frame.points) : mention.points;
    addMentions(path, mention, points);
  }
  for (const [path, frame] of frames) {
    add(path, frame.inner ? 'tracePath' : 'traceCaller', frame.points, frame.reason, undefined, {
      named: true,
    });
    for (const line of frame.lines) byPath.get(path)?.focusLines.add(line);
  }

  // 2. Definitions of the symbols the issue names (`Class.method` counts both parts).
  const { named, classMembers } = namesToLocate(refs);
  const titleNames = new Set(refs.titleNames);
  const codeOnly = new Set(refs.codeOnlyNames);
  // Per file and name, the best evidence that the file defines it (grep, or an import followed)
  // or declares it (an option): such evidence piles up 1, 1/2, 1/3… per file.
  type Definition = {
    kind: EvidenceKind;
    points: number;
    reason: string;
    line: number | undefined;
  };
  const definitions = new Map<string, Map<string, Definition>>();
  const defines = (
    path: string,
    name: string,
    kind: EvidenceKind,
    points: number,
    reason: string,
    line: number | undefined,
  ): void => {
    const names = definitions.get(path) ?? new Map<string, Definition>();
    definitions.set(path, names);
    const known = names.get(name);
    if (!known || known.points < points) names.set(name, { kind, points, reason, line });
  };
  const projectNames = new Set(
    [...projectDirs].map((d) => normaliseName(d.slice(d.lastIndexOf('/') + 1))),
  );
  for (const id of named) {
    if (projectNames.has(normaliseName(id))) continue;
    let definers = findDefinitions(holders(id), id, MAX_HITS);
    let name = id;
    let reason = `defines \`${id}\``;
    const idFactor =
      (EXCEPTION_TYPE.test(id) ? WEIGHTS.exceptionType : 1) *
      (titleNames.has(id) ? WEIGHTS.titleName : 1) *
      (codeOnly.has(id) ? WEIGHTS.codeOnly : 1);
    let factor = idFactor;
    // A versioned name defined nowhere (`PersonName3`): the unversioned one, for half.
    const base = unversioned(id);
    if (definers.length === 0 && base !== undefined && !named.includes(base)) {
      definers = findDefinitions(holders(base), base, MAX_HITS);
      name = base;
      reason = `defines \`${base}\` (the issue's \`${id}\` is defined nowhere)`;
      factor *= WEIGHTS.unversioned;
    }
    // Defined in too many files: the source files among them, when they are few (tests and
    // fixtures define their own `Article`, `Request`, `Config`).
    if (definers.length > MAX_HITS)
      definers = findDefinitions(holders(name).filter(isSource), name, MAX_HITS);
    if (definers.length > MAX_HITS) continue; // too common to tell anything
    let points: number = WEIGHTS.definesIdentifier;
    let kind: EvidenceKind = 'definesIdentifier';
    // Defined nowhere: a key, an instance attribute or a parameter of that name (a setting read
    // by `get_option('scp_if_ssh')`, `self.batch_size = …`, `def fit(X, sample_weight=None)`).
    if (definers.length === 0) {
      definers = findUses(holders(id), id, MAX_HITS);
      if (definers.length > MAX_HITS)
        definers = findUses(holders(id).filter(isSource), id, MAX_HITS);
      if (definers.length === 0 || definers.length > MAX_HITS) continue;
      name = id;
      points = WEIGHTS.usesName;
      kind = 'usesName';
      factor = idFactor;
      reason = `uses \`${id}\` as a key, attribute or parameter (nothing defines it)`;
    }
    const n = sourceCount(definers);
    for (const d of definers) defines(d.path, name, kind, (points * factor) / n, reason, d.line);
  }
  // `Class.method`: the file whose class `Class` defines `method` (below it) is where it lives,
  // whichever other files define a `method` or subclass `Class`.
  for (const { cls, member } of classMembers) {
    const factor = titleNames.has(member) ? WEIGHTS.titleName : 1;
    const classRe = new RegExp(`^[ \\t]*(?:export\\s+)?(?:default\\s+)?class\\s+${cls}\\b`, 'm');
    const memberRe = definitionPattern(member);
    const owners: { path: string; line: number }[] = [];
    const withMember = new Set(holders(member));
    for (const f of holders(cls)) {
      if (!withMember.has(f)) continue;
      const c = matchNear(f.content, cls, classRe);
      if (c < 0) continue;
      const m = matchNear(f.content, member, memberRe, f.content.lastIndexOf('\n', c) + 1);
      // A method: indented under the class, not a top-level function further down.
      const lineStart = m < 0 ? -1 : f.content.lastIndexOf('\n', m) + 1;
      if (m >= 0 && /^[ \t]+/.test(f.content.slice(lineStart, lineStart + 1)))
        owners.push({ path: f.path, line: lineAt(f.content, m) });
    }
    if (owners.length === 0 || owners.length > 3) continue;
    for (const o of owners)
      defines(
        o.path,
        `${cls}.${member}`,
        'definesMember',
        (WEIGHTS.definesMember * factor) / owners.length,
        `defines \`${cls}.${member}\``,
        o.line,
      );
  }

  // 2b. The modules that read a named setting (`settings.FOO`, `self.config.foo`,
  // `app.config["FOO"]`, `getattr(settings, "FOO")`): where a setting's behaviour lives.
  for (const id of named) {
    if (id.length < 4) continue;
    const name = escapeRegExp(id);
    const reads = new RegExp(
      `\\b(?:settings|config|conf|cfg|options|opts)\\s*(?:\\.\\s*${name}\\b|\\[\\s*['"]${name}['"]\\s*\\]|\\.get\\(\\s*['"]${name}['"])|getattr\\(\\s*(?:settings|config|conf)\\s*,\\s*['"]${name}['"]`,
    );
    const readers: Hit[] = [];
    for (const f of holders(id)) {
      const at = matchNear(f.content, id, reads);
      if (at >= 0) readers.push({ path: f.path, line: lineAt(f.content, at) });
      if (readers.length > MAX_HITS) break; // too many: dropped below
    }
    if (readers.length === 0 || readers.length > MAX_HITS) continue;
    const n = sourceCount(readers);
    for (const r of readers)
      add(r.path, 'readsSetting', WEIGHTS.readsSetting / n, `reads the setting \`${id}\``, r.line);
  }

  // 3. The module that raises a quoted message; the file that declares a named option.
  // A test suite asserts its messages verbatim (mypy's `test-data`, Django's tests): when more
  // files than count as evidence hold one, the few source files among them still say where it
  // is raised.
  const telling = (hits: Hit[]): { hits: Hit[]; others: number } => {
    if (hits.length <= MAX_HITS) return { hits, others: 0 };
    const sources = hits.filter(isSource);
    return sources.length > 0 && sources.length <= MAX_HITS
      ? { hits: sources, others: hits.length - sources.length }
      : { hits: [], others: 0 };
  };
  const alsoIn = (others: number): string =>
    others > 0 ? `, as do ${others} test or other file${others === 1 ? '' : 's'}` : '';
  for (const message of refs.messages) {
    const { hits, others } = telling(findMessage(code, message));
    if (hits.length === 0) continue;
    const n = sourceCount(hits);
    for (const h of hits)
      add(
        h.path,
        'raisesMessage',
        (WEIGHTS.raisesMessage * (h.partial ? 0.5 : 1)) / n,
        `holds ${h.partial ? 'part of ' : ''}the quoted message "${short(message)}"${alsoIn(others)}`,
        h.line,
      );
  }
  for (const option of refs.options) {
    const { hits, others } = telling(findOption(code, option));
    if (hits.length === 0) continue;
    const n = sourceCount(hits);
    // Evidence that piles up (a pasted command line of eight options): 1, 1/2, 1/3… per file.
    for (const h of hits)
      defines(
        h.path,
        option,
        'declaresOption',
        WEIGHTS.declaresOption / n,
        `declares option ${option}${alsoIn(others)}`,
        h.line,
      );
  }

  // 4. Names that are file or folder names (not the project's own package); dotted module paths.
  const seenNames = new Set<string>();
  /** The files a name matches, the first time it is asked (`Docker` and `docker` once). */
  const partsNamed = (name: string): NameMatch[] | undefined => {
    const key = normaliseName(name);
    if (seenNames.has(key)) return undefined;
    seenNames.add(key);
    return (names ??= createNameIndex(paths))
      .filesNamed(name)
      .filter((m) => m.how === 'file' || !projectDirs.has(m.dir ?? ''));
  };
  // A symbol or a tag of the title (`` `to_sql` `` → `io/sql.py`, `[Globo]`) that is the name
  // of exactly one part says where, the way a title's symbol says what. Not a plain word
  // ("Item Filters"): what a title's words name is `titleWords`.
  const title = titleOf(issueText);
  const titleParts = new Set([...titleNames, ...tags]);
  // An empty `__init__.py` (comments at most) is no folder's entry: it holds nothing to fix.
  const emptyInits = new Set(
    map.files
      .filter(
        (f) => f.path.endsWith('__init__.py') && f.content.replace(/#.*$/gm, '').trim() === '',
      )
      .map((f) => f.path),
  );
  const entryWeight = (m: NameMatch): number =>
    m.how === 'directory' && emptyInits.has(m.path) ? 0 : m.weight;
  for (const name of refs.names) {
    const matches = partsNamed(name) ?? [];
    const files = matches.filter((m) => m.how === 'file').length;
    if (matches.length === 0 || files > MAX_HITS) continue;
    const share = Math.max(1, files) / (codeOnly.has(name) ? WEIGHTS.codeOnly : 1);
    const inTitle = titleParts.has(name) && onePart(matches);
    const factor = inTitle ? WEIGHTS.titlePart : 1;
    for (const m of matches)
      add(
        m.path,
        'pathMatchesName',
        (WEIGHTS.pathMatchesName * entryWeight(m) * factor) / share,
        `path matches \`${name}\`${inTitle ? ', named in the title' : ''}`,
      );
  }
  // A plain title word that is the name of one part (`SSM` → `services/ssm/`, `fish` →
  // `shells/fish.py`): half a name's weight, and nothing when it names several parts.
  for (const word of refs.titleWords) {
    const matches = partsNamed(word) ?? [];
    const parts = new Set(matches.map((m) => m.dir ?? m.path));
    if (parts.size !== 1) continue;
    for (const m of matches)
      add(
        m.path,
        'titleWord',
        WEIGHTS.pathMatchesName * WEIGHTS.titleWord * entryWeight(m),
        `path matches the title's \`${word}\``,
      );
  }
  // A module counts once, however many of its names the issue dots into.
  const dottedBest = mentionsByFile();
  for (const dotted of refs.dotted) {
    if (EXCEPTION_TYPE.test(dotted)) continue;
    const hits = filesForDotted(paths, dotted);
    const inTitle = hits.length === 1 && title.includes(dotted);
    for (const h of hits) {
      const points = (WEIGHTS.dottedModule * (inTitle ? WEIGHTS.titlePart : 1)) / hits.length;
      dottedBest.note(
        h,
        'dottedModule',
        points,
        `module \`${dotted}\`${inTitle ? ', named in the title' : ''}`,
        undefined,
        true,
      );
    }
  }
  for (const [path, mention] of dottedBest.byFile) addMentions(path, mention, mention.points);

  // 4b. Python names the issue imports (`from pkg.mod import Name`) or dots into
  // (`pkg.mod.Name.method`), followed through the package's re-exports to the defining file.
  const modules = pythonModules(code);
  if (modules.files.size > 0) {
    const wanted: { module: string; name: string; label: string }[] = [];
    for (const imp of refs.imports)
      for (const name of imp.names)
        wanted.push({ module: imp.module, name, label: `from ${imp.module} import ${name}` });
    for (const d of refs.dotted) {
      if (EXCEPTION_TYPE.test(d)) continue;
      const parts = d.split('.');
      for (let k = parts.length - 1; k >= 1; k--) {
        const module = parts.slice(0, k).join('.');
        if (pythonModuleFile(modules, module) === undefined) continue;
        wanted.push({ module, name: parts[k] ?? '', label: d });
        break;
      }
    }
    for (const w of wanted) {
      const factor = codeOnly.has(w.name) ? WEIGHTS.codeOnly : 1;
      const file = pythonModuleFile(modules, w.module);
      const def = file === undefined ? undefined : pythonDefinition(modules, file, w.name);
      if (!def) continue;
      const via = def.via.length > 0 ? `, via ${def.via.join(' → ')}` : '';
      // A submodule (`from pkg import fields`) is a place to look, not the definition itself;
      // a subpackage (`from django.db import models`) is only the way in to a public API.
      if (def.module && /(^|\/)__init__\.pyi?$/.test(def.path)) continue;
      if (def.module)
        defines(
          def.path,
          w.name,
          'importedName',
          (WEIGHTS.importedName * factor) / 2,
          `module \`${w.name}\` (\`${short(w.label, 50)}\`${via})`,
          undefined,
        );
      else
        defines(
          def.path,
          w.name,
          'importedName',
          WEIGHTS.importedName * factor,
          `defines \`${w.name}\` (\`${short(w.label, 50)}\`${via})`,
          def.line,
        );
    }
  }
  // A file that defines several of the names counts more, not several times more: the k-th
  // name (largest first) adds 1/k of its points (a pasted config or a long trace names many
  // things one file holds).
  for (const [path, names] of definitions)
    [...names.values()]
      .sort((a, b) => b.points - a.points)
      .forEach((d, k) => add(path, d.kind, d.points / (k + 1), d.reason, d.line));

  // 5. Word overlap, scaled: it orders files, and the best overlap outweighs weak evidence (a
  // name defined in a file), not a file the issue names.
  if (terms.length > 0 && map.files.length > 0) {
    // The query's weights (the title's terms, repeated terms) count in paths and contents alike.
    const pathScores = createBm25Index(map.files.map((f) => splitWords(f.path))).score(
      terms,
      query.weights,
    );
    const cache: TermCache = new Map();
    const contentScores = scoreBm25Counts(
      map.files.map(
        (f) => options.counted?.get(f.path) ?? termCounts(f.content, query, cache, f.identifiers),
      ),
      terms,
      { weights: query.weights },
    );
    const maxPath = Math.max(0, ...pathScores);
    const maxContent = Math.max(0, ...contentScores);
    entries.forEach((entry, i) => {
      const pathScore = maxPath > 0 ? ((pathScores[i] ?? 0) / maxPath) * WEIGHTS.bm25Path : 0;
      const contentScore =
        maxContent > 0 ? ((contentScores[i] ?? 0) / maxContent) * WEIGHTS.bm25Content : 0;
      const words = { evidence: false };
      if (pathScore > 0)
        add(
          entry.path,
          'bm25Path',
          pathScore,
          `path words match (${round(pathScore)})`,
          undefined,
          words,
        );
      if (contentScore > 0)
        add(
          entry.path,
          'bm25Content',
          contentScore,
          `content matches (${round(contentScore)})`,
          undefined,
          words,
        );
    });
  }

  // 6. Not what a behaviour bug is fixed in: demoted unless the issue is about it or names it.
  // A configuration file the issue names (`docker-compose.yml`, `ec2.ini`, a requirements file)
  // is the reporter's setup, shown for context: demoted too, unless the issue is about
  // configuration.
  const about = kindsTheIssueIsAbout(withoutLinks(issueText));
  const exempt = (e: Entry): boolean =>
    e.kind === 'source' || (e.named && (e.kind !== 'config' || about.has('config')));
  const kindFactor = (kind: PathKind): number =>
    about.has(kind) ? ABOUT_FACTOR[kind] : DEMOTION[kind];
  for (const e of entries) {
    if (exempt(e) || e.score === 0) continue;
    const factor = kindFactor(e.kind);
    e.score *= factor;
    e.evidence *= factor;
    for (const kind of Object.keys(e.points) as EvidenceKind[])
      e.points[kind] = (e.points[kind] ?? 0) * factor;
    e.reasons.push(
      `${KIND_LABEL[e.kind]}: demoted ×${factor}${about.has(e.kind) ? ' (the issue is about it)' : ''}`,
    );
  }

  // 7. One hop through the code: imports and importers of the best source files.
  const top = entries
    .filter((e) => e.kind === 'source' && e.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, HOP_SOURCES);
  if (top.length > 0) {
    const graph = importGraph(
      map.files,
      top.map((t) => t.path),
      options.importSpecs,
    );
    const importers = new Map<string, string[]>();
    for (const [from, tos] of graph)
      for (const to of tos) importers.set(to, [...(importers.get(to) ?? []), from]);
    const bonus = new Map<string, { points: number; reason: string }>();
    for (const t of top) {
      const out = [...(graph.get(t.path) ?? [])];
      const into = importers.get(t.path) ?? [];
      const give = (path: string, share: number, reason: string): void => {
        const points = (t.score * WEIGHTS.importHop) / Math.sqrt(share);
        const known = bonus.get(path);
        if (!known || known.points < points) bonus.set(path, { points, reason });
      };
      for (const p of out) give(p, out.length, `imported by ${t.path}`);
      for (const p of into)
        give(
          p,
          into.length,
          byPath.get(p)?.kind === 'test' ? `test that exercises ${t.path}` : `imports ${t.path}`,
        );
    }
    for (const [path, { points, reason }] of bonus) {
      const entry = byPath.get(path);
      if (!entry) continue;
      const factor = exempt(entry) ? 1 : kindFactor(entry.kind);
      add(path, 'importHop', points * factor, `${reason} (+${round(points * factor)})`, undefined, {
        evidence: false,
      });
    }
  }

  const files = entries
    .filter((e) => e.score > 0)
    .map((e) => ({ e, score: round(e.score) }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        Number(b.e.evidence > 0) - Number(a.e.evidence > 0) ||
        Number(b.e.kind === 'source') - Number(a.e.kind === 'source') ||
        a.e.depth - b.e.depth ||
        a.e.bytes - b.e.bytes ||
        (a.e.path < b.e.path ? -1 : a.e.path > b.e.path ? 1 : 0),
    )
    .map(({ e, score }) => ({
      path: e.path,
      score,
      points: Object.fromEntries(
        Object.entries(e.points).map(([kind, points]) => [kind, round(points)]),
      ),
      reasons: e.reasons,
      focusLines: [...e.focusLines].sort((a, b) => a - b),
    }));
  return { files, refs, query, unavailable };
}
