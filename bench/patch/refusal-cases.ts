import { cutAnswer } from './cut-answers.js';
import type { CutKind } from './cut-answers.js';
import type { DiffFile } from './diff-model.js';
import { lazyAnswer } from './lazy-answers.js';
import type { Rng } from './prng.js';

/** A generated answer whose author meant the edit's tree; a refusal is right too. */
export interface LaterCase {
  klass: string;
  diff: string;
}

const CUTS: [string, CutKind, boolean][] = [
  ['cut-after-removed', 'after-removed', false],
  ['cut-after-removed+bare-headers', 'after-removed', true],
  ['cut-mid-added', 'mid-added', false],
  ['cut-mid-added+bare-headers', 'mid-added', true],
  ['cut-mid-hunk', 'mid-hunk', false],
  ['cut-mid-hunk+bare-headers', 'mid-hunk', true],
  ['cut-trailing-context', 'trailing-context', false],
];

/**
 * The cut-off and lazy answers of one edit: what their authors meant cannot be written from
 * them, so refusing is right (a cut in the last context lines loses nothing and may also apply
 * exactly).
 */
export function refusalCases(
  gold: readonly DiffFile[],
  original: ReadonlyMap<string, string>,
  rng: Rng,
): LaterCase[] {
  const out: LaterCase[] = [];
  for (const [klass, kind, bare] of CUTS) {
    const diff = cutAnswer(gold, kind, bare, rng);
    if (diff !== undefined) out.push({ klass, diff });
  }
  for (const [klass, bare] of [
    ['lazy-elision', false],
    ['lazy-elision+bare-headers', true],
  ] as const) {
    const diff = lazyAnswer(gold, original, bare, rng);
    if (diff !== undefined) out.push({ klass, diff });
  }
  return out;
}
