/**
 * Paths the issue names that are no file here. A data file that is not here (`setup.cfg`,
 * `results.png`) is made, read or written by the few source files that hold its name as a
 * literal (`literalName`); a missing program file is the reporter's own. A path without an
 * extension is a folder: its files (`namedDirectory`), the more of them the less each.
 */
import { escapeRegExp } from '../../grep-code.js';
import type { RankInputs } from '../inputs.js';
import type { PathMentionHere } from '../path-mentions.js';
import { basename, isDataFile } from '../path-shapes.js';
import type { Contribution } from '../types.js';
import { LIMITS, WEIGHTS } from '../weights.js';

/** The source files that hold a missing file's name as a literal, when they are few. */
function literalNameEvidence(inputs: RankInputs, name: string, raw: string): Contribution[] {
  const literal = new RegExp(`["'/]${escapeRegExp(name)}["']`);
  const writers = inputs.holders(name).filter((f) => inputs.isSource(f) && literal.test(f.content));
  if (writers.length === 0 || writers.length > LIMITS.literalHolders) return [];
  return writers.map((f) => ({
    path: f.path,
    kind: 'literalName',
    points: (WEIGHTS.namedBasename * WEIGHTS.literalName) / writers.length,
    reason: `holds the name of the file the issue names (${raw}), which is not in the repository`,
  }));
}

function namedDirectoryEvidence(inputs: RankInputs, dir: string): Contribution[] {
  const under = inputs.map.files.filter((f) => f.path.startsWith(`${dir}/`));
  return under.map((f) => ({
    path: f.path,
    kind: 'namedDirectory',
    points: WEIGHTS.namedDirectory / Math.max(1, Math.log2(under.length)),
    reason: `in the directory the issue names (${dir}/)`,
  }));
}

export function missingPathEvidence(
  inputs: RankInputs,
  mentions: readonly PathMentionHere[],
): Contribution[] {
  /** The names of missing files looked for so far (each once: `a/x.json` and `x.json`). */
  const missing = new Set<string>();
  return mentions.flatMap((m) => {
    if (m.how !== 'absent') return [];
    const name = basename(m.p);
    if (isDataFile(m.p) && !missing.has(name) && missing.size < LIMITS.missingFiles) {
      missing.add(name);
      return literalNameEvidence(inputs, name, m.mention.raw);
    }
    return m.p.includes('.') ? [] : namedDirectoryEvidence(inputs, m.p);
  });
}
