/**
 * The mentions of one thing in a file (a path in several forms, a module dotted into): every
 * reason said, the points of the best mention counted once.
 */
import type { Contribution, EvidenceKind } from './types.js';

export interface Mentions {
  /** The best mention's points: a thing named twice is named, not twice as much. */
  points: number;
  /** The best mention's kind. */
  kind: EvidenceKind;
  reasons: string[];
  lines: (number | undefined)[];
  named: boolean;
}

export interface Mention {
  path: string;
  kind: EvidenceKind;
  points: number;
  reason: string;
  line: number | undefined;
  /** Named explicitly: the file is never demoted. */
  named: boolean;
}

/** The mentions by file, in the order the files are first mentioned. */
export function mentionsByFile(mentions: Iterable<Mention>): Map<string, Mentions> {
  const byFile = new Map<string, Mentions>();
  for (const { path, kind, points, reason, line, named } of mentions) {
    const known = byFile.get(path) ?? { points: 0, kind, reasons: [], lines: [], named: false };
    if (points > known.points) {
      known.points = points;
      known.kind = kind;
    }
    known.named ||= named;
    known.reasons.push(reason);
    known.lines.push(line);
    byFile.set(path, known);
  }
  return byFile;
}

/** One thing's mentions in a file as contributions: every reason, `points` counted once. */
export const mentionEvidence = (path: string, mention: Mentions, points: number): Contribution[] =>
  mention.reasons.map((reason, i) => {
    const line = mention.lines[i];
    return {
      path,
      kind: mention.kind,
      points: i === 0 ? points : 0,
      reason,
      ...(line !== undefined && { lines: [line] }),
      named: mention.named,
    };
  });
