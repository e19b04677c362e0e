/**
 * What the ranking is made of and what it answers: the kinds of evidence, one file's share of
 * evidence (a contribution), a definition claim (piled per file by the fold), and the ranking.
 */
import type { SkippedFile } from '../build-repo-map.js';
import type { IssueRefs } from '../extract-issue-refs.js';
import type { TermCounts, TermQuery } from '../split-words.js';

/**
 * The kinds of evidence a score is made of (`RankedFile.points`): what the issue names (a path,
 * a frame, a file name), what a file defines, raises or declares, the names its path matches,
 * word overlap, the hop through the imports, and the files that changed with the best ones.
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
  | 'importHop'
  | 'coChange';

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

/**
 * Points for one file from one piece of evidence. The fold adds them in the order given: a
 * file's points add up, and its reasons are listed (each once), in that order.
 */
export interface Contribution {
  path: string;
  kind: EvidenceKind;
  points: number;
  reason: string;
  /** 1-based lines it points at (`RankedFile.focusLines`). */
  lines?: readonly number[];
  /** Named explicitly (a path, a frame, a file name): the file is never demoted. */
  named?: boolean;
  /**
   * `false` for word overlap, the import hop and co-change: they order files but are no structural
   * evidence (named, defines, raises, path match), which ranks a file first among equal scores.
   */
  evidence?: boolean;
}

/**
 * Evidence that a file defines (or declares) a name. The fold keeps a file's best claim per
 * name, and a file that defines several names counts more, not several times more.
 */
export interface DefinitionClaim {
  path: string;
  name: string;
  kind: EvidenceKind;
  points: number;
  reason: string;
  line: number | undefined;
}
