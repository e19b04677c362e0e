/**
 * Stack-trace frames in files of the repository (`tracePath`, `traceCaller`): a frame counts
 * once per file, the innermost frame in the repository (where the error was raised) above its
 * callers.
 */
import { short } from '../format.js';
import type { RankInputs } from '../inputs.js';
import { onePart, ownParts } from '../named-parts.js';
import type { PathMentionHere } from '../path-mentions.js';
import type { Contribution } from '../types.js';
import { WEIGHTS } from '../weights.js';

/** A file's best frame, and the lines of all its frames. */
export interface Frame {
  points: number;
  reason: string;
  lines: number[];
  /** The innermost frame, or a frame in the part the title names. */
  inner: boolean;
}

/**
 * The files of the one part a name of the title names (`[Globo] …`, `` `sonyliv` ``): a caller
 * frame there is the trace passing through what the issue is about (an extractor whose error
 * the shared code raised), as telling as the innermost frame.
 */
function titlePartFiles(inputs: RankInputs): Set<string> {
  const titled = new Set<string>();
  const { refs, tags } = inputs;
  for (const name of [...refs.titleNames, ...tags, ...refs.titleWords]) {
    const own = ownParts(inputs, name);
    if (own.length > 0 && onePart(own)) for (const m of own) titled.add(m.path);
  }
  return titled;
}

/** Each file's frames, by path, in the order the trace names the files. */
export function traceFrames(
  inputs: RankInputs,
  mentions: readonly PathMentionHere[],
): Map<string, Frame> {
  const frames = new Map<string, Frame>();
  let titled: Set<string> | undefined;
  for (const m of mentions) {
    if (m.how !== 'frame') continue;
    const { mention, files, innermost } = m;
    for (const f of files) {
      const inTitlePart = !innermost && (titled ??= titlePartFiles(inputs)).has(f.path);
      const inner = innermost || inTitlePart;
      const points = (inner ? WEIGHTS.tracePath : WEIGHTS.traceCaller) / files.length;
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
        reason: `named in a stack trace${innermost ? ', innermost frame in the repository' : inTitlePart ? ', in the part the title names' : ''} (${short(mention.raw, 60)})`,
        lines,
      });
    }
  }
  return frames;
}

export const traceFrameEvidence = (frames: ReadonlyMap<string, Frame>): Contribution[] =>
  [...frames].map(([path, frame]) => ({
    path,
    kind: frame.inner ? 'tracePath' : 'traceCaller',
    points: frame.points,
    reason: frame.reason,
    lines: frame.lines,
    named: true,
  }));
