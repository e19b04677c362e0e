/**
 * The repository map as prompt text, within a token budget: every file with its top-level
 * definitions when that fits, otherwise progressively shorter (paths only, then directories
 * with file counts), the best-ranked files always with their definitions. The text says which
 * form it is in.
 */
import { countTokens } from '../llm/count-tokens.js';
import { shownTarget } from '../repo-files/refusal.js';
import { symbolsOf, type RepoFile, type RepoMap } from './build-repo-map.js';
import type { Ranking } from './rank-files.js';

export type OutlineLevel = 'symbols' | 'paths' | 'directories' | 'ranked-only';

export interface RepoOutline {
  text: string;
  tokens: number;
  level: OutlineLevel;
}

function describe(file: RepoFile, maxSymbols = 6): string {
  const top = symbolsOf(file).filter((s) => s.topLevel);
  if (top.length > 0) {
    const names = top.slice(0, maxSymbols).map((s) => s.name);
    const more = top.length > maxSymbols ? ` +${top.length - maxSymbols}` : '';
    return `${file.path}: ${names.join(', ')}${more}`;
  }
  const first = file.firstLines[0];
  return first
    ? `${file.path}: "${first.length > 60 ? `${first.slice(0, 60)}…` : first}"`
    : file.path;
}

/** Links shown by name: the model may need to know `docs/README.md` is `../README.md`. */
const MAX_LINKS_SHOWN = 20;

/** The repository's links as what they are (their own text), never what they point at. */
function linksLine(map: RepoMap): string | undefined {
  const links = map.skipped.filter((s) => s.reason === 'symlink' && s.target !== undefined);
  if (links.length === 0) return undefined;
  const shown = links
    .slice(0, MAX_LINKS_SHOWN)
    .map((l) => `${l.path} -> ${shownTarget(l.target!)}`);
  const more = links.length > MAX_LINKS_SHOWN ? `; +${links.length - MAX_LINKS_SHOWN} more` : '';
  return `Symbolic links (not followed, not editable): ${shown.join('; ')}${more}`;
}

function summary(map: RepoMap): string {
  const reasons = new Map<string, number>();
  for (const s of map.skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
  const skipped = [...reasons].map(([reason, n]) => `${n} ${reason}`).join(', ');
  const head = `${map.files.length} text files${skipped ? ` (not read: ${skipped})` : ''}.`;
  const links = linksLine(map);
  return links ? `${head}\n${links}` : head;
}

const dirOf = (path: string): string =>
  path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : './';

/**
 * Whether an outline within `budget` could list every file with its definitions (its first
 * form); otherwise it shows only the best-ranked files' definitions. Paths alone are a lower
 * bound of that text, measured as `renderRepoOutline` measures it.
 */
export function mayDescribeEveryFile(files: readonly { path: string }[], budget: number): boolean {
  let length = 0;
  for (const f of files) length += f.path.length + 1;
  return length / 6 <= budget;
}

/** `src/billing/: invoices/ (23), payments/ (19)`: one line per parent directory. */
function byDirectory(files: readonly RepoFile[]): string[] {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(dirOf(f.path), (counts.get(dirOf(f.path)) ?? 0) + 1);
  const groups = new Map<string, string[]>();
  for (const [dir, count] of [...counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const parent = dir === './' ? './' : dirOf(dir.slice(0, -1));
    const name = dir === './' ? '' : dir.slice(parent === './' ? 0 : parent.length);
    groups.set(parent, [...(groups.get(parent) ?? []), `${name || '(files)'} (${count})`]);
  }
  return [...groups].map(([parent, children]) => `${parent}: ${children.join(', ')}`);
}

/** The outline's forms, longest first; each renders only when tried. */
function outlineForms(
  map: RepoMap,
  head: string,
  rankedFiles: readonly RepoFile[],
  others: readonly RepoFile[],
): [OutlineLevel, () => string][] {
  const withRanked = (count: number, symbols: boolean, rest: string[], restTitle: string): string =>
    [
      head,
      `Files most related to the issue${symbols ? ', with their definitions' : ''}:`,
      ...rankedFiles.slice(0, count).map((f) => (symbols ? describe(f) : f.path)),
      restTitle,
      ...rest,
    ].join('\n');
  const perDirectory = 'Other files, counted per directory (shortened to fit the budget):';
  return [
    ['symbols', () => [head, ...map.files.map((f) => describe(f))].join('\n')],
    [
      'paths',
      () =>
        withRanked(
          30,
          true,
          others.map((f) => f.path),
          'Other files (paths only, shortened to fit the budget):',
        ),
    ],
    ['directories', () => withRanked(15, true, byDirectory(others), perDirectory)],
    ['directories', () => withRanked(15, false, byDirectory(others), perDirectory)],
  ];
}

/** Last resort: the best-ranked paths only, as many as fit. */
function rankedOnly(
  map: RepoMap,
  head: string,
  rankedFiles: readonly RepoFile[],
  budget: number,
): RepoOutline {
  for (
    let keep = rankedFiles.length;
    keep >= 0;
    keep = keep > 8 ? Math.floor(keep / 2) : keep - 1
  ) {
    const text = [
      head,
      ...rankedFiles.slice(0, keep).map((f) => f.path),
      `(${map.files.length - keep} other files not listed: the map did not fit the budget)`,
    ].join('\n');
    const tokens = countTokens(text);
    if (tokens <= budget) return { text, tokens, level: 'ranked-only' };
  }
  return { text: '', tokens: 0, level: 'ranked-only' };
}

export function renderRepoOutline(map: RepoMap, ranking: Ranking, budget: number): RepoOutline {
  const ranked = new Set(ranking.files.slice(0, 30).map((r) => r.path));
  const rankedFiles = ranking.files
    .slice(0, 30)
    .map((r) => map.files.find((f) => f.path === r.path))
    .filter((f): f is RepoFile => f !== undefined);
  const others = map.files.filter((f) => !ranked.has(f.path));
  const head = summary(map);
  for (const [level, render] of outlineForms(map, head, rankedFiles, others)) {
    // Not every file's definitions read to learn that their paths alone are too long.
    if (level === 'symbols' && !mayDescribeEveryFile(map.files, budget)) continue;
    if (level === 'paths' && !mayDescribeEveryFile(others, budget)) continue;
    const text = render();
    // Paths and names run 3-4 characters per token: far over the budget needs no exact count.
    if (text.length / 6 > budget) continue;
    const tokens = countTokens(text);
    if (tokens <= budget) return { text, tokens, level };
  }
  return rankedOnly(map, head, rankedFiles, budget);
}
