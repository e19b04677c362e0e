/**
 * Which files an issue is about, best first, each with its score and the reasons for it, the
 * way a maintainer reads an issue: stack-trace frames and paths it names first; then grep-exact
 * evidence — the files that DEFINE the symbols it names, raise the message it quotes, declare the
 * `--option` it names, or are named like the part it names (`weekOfYear` →
 * `src/plugin/weekOfYear/index.js`, `pkg.mod` → `pkg/mod.py`); then word overlap (BM25 over
 * path and content, scaled so it orders files rather than outweighs evidence). Tests, docs,
 * changelogs, examples, templates, CI config and build output are demoted unless the issue is
 * about them or names them; the imports and importers of the best source files, and the files the
 * recent commits changed with them, get a small boost (one hop).
 *
 * Each source of evidence is a module of `ranking/evidence/` that reads the shared inputs
 * (`ranking/inputs.ts`) and answers its contributions; the numbers are `ranking/weights.ts`; the
 * fold (`ranking/fold.ts`) combines them into the ranking.
 */
import type { RepoMap } from './build-repo-map.js';
import { coChangeEvidence } from './ranking/evidence/co-change.js';
import { classMemberEvidence } from './ranking/evidence/class-members.js';
import { declaresOptionEvidence } from './ranking/evidence/declares-option.js';
import { definedNameEvidence } from './ranking/evidence/defined-names.js';
import { dottedModuleEvidence } from './ranking/evidence/dotted-module.js';
import { importHopEvidence } from './ranking/evidence/import-hop.js';
import { importedNameEvidence } from './ranking/evidence/imported-name.js';
import { missingPathEvidence } from './ranking/evidence/missing-paths.js';
import { namedFileEvidence } from './ranking/evidence/named-files.js';
import { pathMatchesNameEvidence } from './ranking/evidence/path-matches-name.js';
import { raisesMessageEvidence } from './ranking/evidence/raises-message.js';
import { readsSettingEvidence } from './ranking/evidence/reads-setting.js';
import { titleWordEvidence } from './ranking/evidence/title-word.js';
import { traceFrameEvidence, traceFrames } from './ranking/evidence/trace-frames.js';
import { wordOverlapEvidence } from './ranking/evidence/word-overlap.js';
import { foldEvidence } from './ranking/fold.js';
import { rankInputs } from './ranking/inputs.js';
import { pathMentionsHere, unavailableFiles } from './ranking/path-mentions.js';
import type { RankOptions, Ranking } from './ranking/types.js';

export { locatedNames, namesToLocate } from './ranking/names-to-locate.js';
export type { EvidenceKind, RankedFile, Ranking, RankOptions } from './ranking/types.js';
export { WEIGHTS } from './ranking/weights.js';

export function rankFiles(map: RepoMap, text: string, options: RankOptions = {}): Ranking {
  const inputs = rankInputs(map, text, options);
  const mentions = pathMentionsHere(inputs);
  const frames = traceFrames(inputs, mentions);
  const files = foldEvidence(inputs, {
    direct: [
      ...missingPathEvidence(inputs, mentions),
      ...namedFileEvidence(mentions, frames),
      ...traceFrameEvidence(frames),
      ...readsSettingEvidence(inputs),
      ...raisesMessageEvidence(inputs),
      ...pathMatchesNameEvidence(inputs),
      ...titleWordEvidence(inputs),
      ...dottedModuleEvidence(inputs),
    ],
    definitions: [
      ...definedNameEvidence(inputs),
      ...classMemberEvidence(inputs),
      ...declaresOptionEvidence(inputs),
      ...importedNameEvidence(inputs),
    ],
    words: wordOverlapEvidence(inputs),
    hop: (top, factorOf) => [
      ...importHopEvidence(inputs, top, factorOf),
      ...coChangeEvidence(inputs, top, factorOf),
    ],
  });
  return { files, refs: inputs.refs, query: inputs.query, unavailable: unavailableFiles(mentions) };
}
