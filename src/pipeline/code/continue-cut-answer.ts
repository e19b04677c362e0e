/**
 * A round whose answer was cut off at the model's output limit (the server said so, or the edit
 * engine saw it in the answer) is never applied. The next round asks for the rest with a smaller
 * scope instead of the same request again: the complete part of the cut answer (udiff: its
 * hunks before the one being written; fenced-files: its closed file blocks) and the round's other
 * answers are kept, and the model sends only what follows — from the cut hunk on, or the one file
 * it was writing. The kept part and the new answer are then applied together, as one answer.
 */
import type { EditFormat } from '../../config/repo-config.js';
import { locateCut } from '../../edits/index.js';
import type { AnswerCut } from '../../edits/index.js';
import { AutofixError } from '../../errors.js';
import { whereCut } from './cut-off-message.js';
import { briefFromError, type Continuation, type FailureBrief } from './failure-brief.js';

/** One answer of a round as the model sent it, and why the server says it was cut, if it does. */
export interface RoundAnswer {
  text: string;
  truncated: string | null;
}

const quote = (text: string): string => ['````', text.trimEnd(), '````'].join('\n');

/** How the next answer is asked for, per format: from the cut hunk on, or the one file whole. */
function askFor(format: EditFormat, cut: AnswerCut, head: string): string {
  const file = cut.path === undefined ? 'the file it was writing' : `\`${cut.path}\``;
  const kept =
    head.trim() === ''
      ? ''
      : `\n\nThis part of it arrived complete and is kept; it will be applied together with your answer, so do not send it again:\n${quote(head)}`;
  switch (format) {
    case 'udiff':
      return (
        `Do not send the whole change again: continue from the last complete hunk.${kept}\n\n` +
        `Send only the rest of the diff: ${file} from ${cut.hunk === undefined ? 'its first hunk' : `its hunk ${cut.hunk}`} on, ` +
        'starting with its `--- a/<path>` and `+++ b/<path>` lines, then every file after it. ' +
        'Keep hunks small: only the lines that change, with 3 unchanged lines around each change.'
      );
    case 'fenced-files':
      return `Do not send the whole answer again.${kept}\n\nSend only ${file}, complete, in one \`^^^<path>\` … \`^^^end\` block, then any file that was to follow it.`;
    case 'json-writes':
      return `Nothing of it can be kept (a cut JSON is no JSON). Send it again with the writes of only the files that must change; ${file} first, complete.`;
    case 'edit-ops':
      return `Nothing of it can be kept (a cut JSON is no JSON). Send it again with small \`replace\` / \`insert_after\` edits of only the lines that change instead of whole files; ${file} first.`;
  }
}

/**
 * The brief of a round with a cut answer, for the fixer: where it stops, why it is known to be
 * cut (`why`, the server's word or the engine's evidence), and what to send instead. `err` is the
 * engine's refusal when it saw the cut itself.
 */
export function cutBrief(
  format: EditFormat,
  answers: readonly RoundAnswer[],
  index: number,
  why: string,
  err?: AutofixError,
): FailureBrief {
  const text = answers[index]?.text ?? '';
  const seen = (err?.details as { cut?: AnswerCut } | undefined)?.cut;
  const located = locateCut(format, text, seen?.path);
  const cut = { ...located.cut, ...seen };
  const message =
    err?.message ??
    `Your previous answer was cut off at the output limit (${why}): it stops ${whereCut(cut)}. Nothing from it was written.`;
  const continuation: Continuation = {
    kept: answers.filter((_, i) => i !== index).map((a) => a.text),
    head: located.keep,
    ask: askFor(format, cut, located.keep),
  };
  return {
    ...briefFromError(err ?? new AutofixError('LLM_OUTPUT_INVALID', message)),
    continuation,
  };
}

/**
 * The texts to apply for an answer that continues a cut one: the kept answers, and the cut
 * answer's complete part followed by the new answer — or the new answer alone when it sends the
 * kept part again (a model that started over).
 */
export function continued(c: Continuation, answer: string): string[] {
  const restarted = c.head.trim() !== '' && answer.includes(lastLine(c.head));
  return [...c.kept, restarted || c.head.trim() === '' ? answer : `${c.head}\n${answer}`];
}

const lastLine = (text: string): string =>
  text
    .trimEnd()
    .split('\n')
    .filter((l) => l.trim().length > 3)
    .slice(-3)
    .join('\n');

/**
 * Which of a round's answers the engine found cut off (`details.cut` of its refusal): the last
 * one that names the cut file, else the last one; undefined when the refusal is not about a cut.
 */
export function cutIndex(answers: readonly RoundAnswer[], err: AutofixError): number | undefined {
  const cut = (err.details as { cut?: AnswerCut } | undefined)?.cut;
  if (!cut) return undefined;
  const path = cut.path;
  const named = answers.map((a, i) => (path !== undefined && a.text.includes(path) ? i : -1));
  const last = Math.max(...named);
  return last >= 0 ? last : answers.length - 1;
}
