/**
 * The parts of the repository (files and folders) a name names, as the path evidence reads
 * them: the project's own package is no part, and a name is asked once (`Docker` and `docker`).
 */
import { normaliseName, type NameMatch } from '../code-graph.js';
import type { RankInputs } from './inputs.js';

/** The files and folders `name` names, the project's own package left out. */
export const ownParts = (inputs: RankInputs, name: string): NameMatch[] =>
  inputs
    .nameIndex()
    .filesNamed(name)
    .filter((m) => m.how === 'file' || !inputs.projectDirs.has(m.dir ?? ''));

/** Whether the matches are all one part (one file, or files of one folder). */
export const onePart = (matches: readonly NameMatch[]): boolean =>
  new Set(matches.map((m) => m.dir ?? m.path)).size === 1;

/** `names` in order, each the first time it is asked, after those of `asked`. */
export function askedOnce(names: readonly string[], asked: readonly string[] = []): string[] {
  const seen = new Set(asked.map(normaliseName));
  return names.filter((name) => {
    const key = normaliseName(name);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A match's weight, none for a folder whose entry is an empty `__init__.py`. */
export const entryWeight = (inputs: RankInputs, m: NameMatch): number =>
  m.how === 'directory' && inputs.emptyInits.has(m.path) ? 0 : m.weight;
