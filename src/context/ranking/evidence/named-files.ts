/**
 * Files the issue names in its prose (`namedPath`: by path; `namedBasename`: by file name, where
 * no file has the path). A file counts once however often, and in whichever forms, the prose
 * names it (`a.py`, `pkg/a.py:12`, the script of a command line); a caller frame the prose also
 * names is the same mention again (the script the reporter ran, the line they point at). The
 * innermost frame and a mention in the prose are two things the issue says: they add up.
 */
import { mentionEvidence, mentionsByFile, type Mention } from '../mentions.js';
import type { PathMentionHere } from '../path-mentions.js';
import type { Contribution } from '../types.js';
import { LIMITS, WEIGHTS } from '../weights.js';
import type { Frame } from './trace-frames.js';

function* proseMentions(mentions: readonly PathMentionHere[]): Generator<Mention> {
  for (const m of mentions) {
    if (m.how === 'path')
      for (const f of m.files)
        yield {
          path: f.path,
          kind: 'namedPath',
          points: WEIGHTS.namedPath / m.files.length,
          reason: `named in the issue (${m.mention.raw})`,
          line: m.mention.line,
          named: true,
        };
    if (m.how === 'basename')
      for (const f of m.files)
        yield {
          path: f.path,
          kind: 'namedBasename',
          points: WEIGHTS.namedBasename / m.files.length,
          reason: `file name named in the issue (${m.mention.raw})`,
          line: m.mention.line,
          named: m.files.length <= LIMITS.namedBasenames,
        };
  }
}

export function namedFileEvidence(
  mentions: readonly PathMentionHere[],
  frames: ReadonlyMap<string, Frame>,
): Contribution[] {
  return [...mentionsByFile(proseMentions(mentions))].flatMap(([path, mention]) => {
    const frame = frames.get(path);
    const points =
      frame && !frame.inner ? Math.max(0, mention.points - frame.points) : mention.points;
    return mentionEvidence(path, mention, points);
  });
}
