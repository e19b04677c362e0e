import type { EditFormat } from '../../config/repo-config.js';
import { locateCut } from '../../edits/index.js';
import type { AnswerCut } from '../../edits/index.js';

/** Where a cut answer stops, in words: file, hunk, line of the answer. */
export function whereCut(cut: AnswerCut): string {
  return (
    [
      cut.path === undefined ? undefined : `in \`${cut.path}\``,
      cut.hunk === undefined ? undefined : `hunk ${cut.hunk}`,
      cut.line === undefined ? undefined : `at line ${cut.line} of the answer`,
    ]
      .filter((w) => w !== undefined)
      .join(', ') || 'before its end'
  );
}

/**
 * The refusal of an answer the server says was cut off at the output limit (`why`: how it said
 * so), naming where it stops. Shared by the code stage and the local modes, which never apply one.
 */
export function cutOffMessage(format: EditFormat, text: string, why: string): string {
  return `Your previous answer was cut off at the output limit (${why}): it stops ${whereCut(locateCut(format, text).cut)}. Nothing from it was written.`;
}
