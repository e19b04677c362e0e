/**
 * The fold: the evidence combined into the ranking. Each file's points add up in the order the
 * evidence is given (its reasons listed in that order, each once): what the issue names and
 * what the grep finds, then the definition claims piled per file, then word overlap; then the
 * files the issue is not about are demoted, and the imports and importers of the best source
 * files, and the files changed with them, get their share (one hop, which reads the scores so
 * far). Equal scores are ordered by
 * structure: a definition before a mention, source before the rest, shallower before deeper,
 * smaller before larger, then by path.
 */
import type { Scored } from './evidence/import-hop.js';
import { demote, type Demotable } from './demotion.js';
import { round } from './format.js';
import type { RankInputs } from './inputs.js';
import { pileDefinitions } from './pile-definitions.js';
import type { Contribution, DefinitionClaim, RankedFile } from './types.js';
import { LIMITS } from './weights.js';

export interface Evidence {
  /** Points as found, in order: the issue's paths, settings, messages, names, modules. */
  direct: readonly Contribution[];
  /** What files define or declare, piled per file (`pileDefinitions`). */
  definitions: readonly DefinitionClaim[];
  /** Word overlap. */
  words: readonly Contribution[];
  /**
   * The hop from the best source files (their imports and importers, the files changed with
   * them), demoted by `factorOf` as the files it goes to.
   */
  hop(top: readonly Scored[], factorOf: (path: string) => number | undefined): Contribution[];
}

interface Entry extends Demotable {
  path: string;
  depth: number;
  bytes: number;
  focusLines: Set<number>;
}

function add(byPath: ReadonlyMap<string, Entry>, contributions: readonly Contribution[]): void {
  for (const c of contributions) {
    const entry = byPath.get(c.path);
    if (!entry) continue;
    entry.score += c.points;
    entry.points[c.kind] = (entry.points[c.kind] ?? 0) + c.points;
    if (c.evidence !== false) entry.evidence += c.points;
    if (c.named) entry.named = true;
    if (!entry.reasons.includes(c.reason)) entry.reasons.push(c.reason);
    for (const line of c.lines ?? []) entry.focusLines.add(line);
  }
}

/** The best source files, best first. */
const topSources = (entries: readonly Entry[]): Scored[] =>
  entries
    .filter((e) => e.kind === 'source' && e.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, LIMITS.hopSources);

/** The files that scored, best first (scores rounded to two decimals). */
const ordered = (entries: readonly Entry[]): RankedFile[] =>
  entries
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

export function foldEvidence(inputs: RankInputs, evidence: Evidence): RankedFile[] {
  const entries: Entry[] = inputs.classified.map(({ file, kind }) => ({
    path: file.path,
    kind,
    depth: file.path.split('/').length,
    bytes: file.bytes,
    score: 0,
    points: {},
    evidence: 0,
    named: false,
    reasons: [],
    focusLines: new Set<number>(),
  }));
  const byPath = new Map(entries.map((e) => [e.path, e]));
  add(byPath, evidence.direct);
  add(byPath, pileDefinitions(evidence.definitions));
  add(byPath, evidence.words);
  const factorOf = demote(entries, inputs.issueText);
  add(
    byPath,
    evidence.hop(topSources(entries), (path) => {
      const entry = byPath.get(path);
      return entry && factorOf(entry);
    }),
  );
  return ordered(entries);
}
