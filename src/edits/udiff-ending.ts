import { hunkShape } from './hunk-shape.js';
import type { AnswerEnding } from './last-hunk-cut.js';
import type { FilePatch } from './parse-unified-diff.js';
import type { AnswerCut } from './types.js';

/** How a udiff answer ends: its last hunk, or a sign that the whole answer was cut off. */
export interface UdiffEnding {
  ending?: AnswerEnding;
  cut?: AnswerCut;
}

const FENCE = /^(```|~~~)/;

const pathOf = (p: FilePatch): string | undefined =>
  p.newPath ?? p.oldPath ?? p.gitPaths?.[1] ?? p.gitPaths?.[0];

/** A file header with nothing after it: no hunk, no rename, no mode or binary line. */
function dangling(patch: FilePatch, lines: readonly string[]): boolean {
  if (patch.hunks.length > 0 || patch.binary || patch.renameTo !== undefined) return false;
  if (patch.isDelete || (patch.isCreate && patch.newPath === undefined)) return false;
  return !lines.slice(patch.diffLine).some((l) => /^(old|new) mode /.test(l));
}

/**
 * Reads the end of a udiff answer (pure): an unclosed ``` fence, or a file header after which
 * nothing came, say the answer was cut off; otherwise its last hunk is handed on with whether the
 * text stops mid-line and the context depth the other files' hunks show (`last-hunk-cut.ts`).
 */
export function udiffEnding(text: string, patches: readonly FilePatch[]): UdiffEnding {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const fences = lines.flatMap((l, i) => (FENCE.test(l) ? [i + 1] : []));
  const last = patches[patches.length - 1];
  if (fences.length % 2 === 1) {
    const at = fences[fences.length - 1] ?? 0;
    const path = last ? pathOf(last) : undefined;
    return {
      cut: {
        ...(path === undefined ? {} : { path }),
        line: at,
        why: `it ends inside the \`\`\` block opened at line ${at}, which is never closed`,
      },
    };
  }
  if (!last) return {};
  if (dangling(last, lines)) {
    const path = pathOf(last);
    return {
      cut: {
        ...(path === undefined ? {} : { path }),
        line: last.diffLine,
        why: `it ends with the header of ${path === undefined ? 'a file' : `\`${path}\``} (line ${last.diffLine}) and no hunk after it`,
      },
    };
  }
  const hunk = last.hunks[last.hunks.length - 1];
  if (!hunk) return {};
  const tail = lines[lines.length - 1] ?? '';
  const depths = patches
    .filter((p) => p !== last && !p.isCreate)
    .flatMap((p) => p.hunks.map(hunkShape))
    .filter((s) => s.changes > 0)
    .map((s) => Math.min(s.lead, s.trail));
  return {
    ending: {
      hunk,
      endsMidLine: tail !== '' && /^[ +-]/.test(tail),
      ...(depths.length > 0 ? { crossDepth: Math.max(...depths) } : {}),
    },
  };
}
