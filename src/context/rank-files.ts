/**
 * Which files an issue is about, best first, each with its score and the reasons for it:
 * paths the issue names, files defining identifiers it names, then BM25 over path words and
 * over content. Deterministic: equal scores are ordered by path.
 */
import { createBm25Index } from './bm25.js';
import type { RepoMap, SkippedFile } from './build-repo-map.js';
import { extractIssueRefs, type IssueRefs } from './extract-issue-refs.js';
import { splitWords } from './split-words.js';

export interface RankedFile {
  path: string;
  score: number;
  /** Why it ranks, most important first (for `autofix context` and the run log). */
  reasons: string[];
  /** 1-based lines the issue points at (stack-trace lines, definitions of named identifiers). */
  focusLines: number[];
}

export interface Ranking {
  files: RankedFile[];
  refs: IssueRefs;
  /** BM25 query terms taken from the issue. */
  terms: string[];
  /** Files the issue names that the map skipped (binary, too large, …): never silently lost. */
  unavailable: SkippedFile[];
}

export const WEIGHTS = {
  namedPath: 100,
  namedBasename: 40,
  namedDirectory: 8,
  definesIdentifier: 20,
  bm25Path: 2,
  bm25Content: 1,
} as const;

const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
const round = (n: number): number => Math.round(n * 100) / 100;

export function rankFiles(map: RepoMap, issueText: string): Ranking {
  const refs = extractIssueRefs(issueText);
  const terms = [...new Set(splitWords(issueText))];
  const entries = map.files.map((f) => ({
    path: f.path,
    score: 0,
    reasons: [] as string[],
    focusLines: new Set<number>(),
  }));
  const byPath = new Map(entries.map((e) => [e.path, e]));
  const add = (path: string, points: number, reason: string, line?: number): void => {
    const entry = byPath.get(path);
    if (!entry) return;
    entry.score += points;
    if (!entry.reasons.includes(reason)) entry.reasons.push(reason);
    if (line !== undefined) entry.focusLines.add(line);
  };

  const unavailable: SkippedFile[] = [];
  for (const mention of refs.paths) {
    const p = mention.path.replace(/^\/+/, '');
    const suffix = (f: string): boolean =>
      f === p || f.endsWith(`/${p}`) || mention.path.endsWith(`/${f}`);
    const exact = map.files.filter((f) => suffix(f.path));
    if (exact.length > 0) {
      for (const f of exact)
        add(
          f.path,
          WEIGHTS.namedPath / exact.length,
          `named in the issue (${mention.raw})`,
          mention.line,
        );
      continue;
    }
    const skipped = map.skipped.find((s) => suffix(s.path));
    if (skipped) {
      if (!unavailable.includes(skipped)) unavailable.push(skipped);
      continue;
    }
    const sameName = map.files.filter((f) => basename(f.path) === basename(p) && p.includes('.'));
    for (const f of sameName)
      add(
        f.path,
        WEIGHTS.namedBasename / sameName.length,
        `file name named in the issue (${mention.raw})`,
        mention.line,
      );
    if (sameName.length === 0 && !p.includes('.')) {
      const under = map.files.filter((f) => f.path.startsWith(`${p}/`));
      for (const f of under)
        add(
          f.path,
          WEIGHTS.namedDirectory / Math.max(1, Math.log2(under.length)),
          `in the directory the issue names (${p}/)`,
        );
    }
  }

  for (const id of refs.identifiers) {
    const definers = map.files
      .map((f) => ({ path: f.path, defs: f.symbols.filter((s) => s.name === id) }))
      .filter((d) => d.defs.length > 0);
    if (definers.length === 0 || definers.length > 20) continue; // too common to tell anything
    for (const d of definers)
      for (const def of d.defs)
        add(d.path, WEIGHTS.definesIdentifier / definers.length, `defines \`${id}\``, def.line);
  }

  if (terms.length > 0 && map.files.length > 0) {
    const pathScores = createBm25Index(map.files.map((f) => splitWords(f.path))).score(terms);
    const contentScores = createBm25Index(map.files.map((f) => splitWords(f.content))).score(terms);
    entries.forEach((entry, i) => {
      const pathScore = (pathScores[i] ?? 0) * WEIGHTS.bm25Path;
      const contentScore = (contentScores[i] ?? 0) * WEIGHTS.bm25Content;
      entry.score += pathScore + contentScore;
      if (pathScore > 0) entry.reasons.push(`path words match (${round(pathScore)})`);
      if (contentScore > 0) entry.reasons.push(`content matches (${round(contentScore)})`);
    });
  }

  const files = entries
    .filter((e) => e.score > 0)
    .map((e) => ({
      path: e.path,
      score: round(e.score),
      reasons: e.reasons,
      focusLines: [...e.focusLines].sort((a, b) => a - b),
    }))
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, refs, terms, unavailable };
}
