import { AutofixError } from '../errors.js';
import type { ParsedEdits, ReadFile } from './types.js';
import { wholeFileLoss } from './whole-file-loss.js';

const MAX_QUOTED = 12;

/**
 * The whole-file formats' half of the two rules the udiff engine applies to hunks: a new version
 * of an existing file that replaces code with a placeholder (`# ... rest unchanged ...`) or stops
 * where the file goes on (cut off) is refused, naming the file and the lines it would lose.
 */
export async function refuseLostCode(parsed: ParsedEdits, readFile: ReadFile): Promise<void> {
  const problems: string[] = [];
  let cut: { path: string; line: number; why: string } | undefined;
  for (const change of parsed.changeSet.files) {
    if (change.op !== 'write' || change.content === undefined) continue;
    const before = await readFile(change.path);
    if (before === undefined || before === change.content) continue;
    const loss = wholeFileLoss(before, change.content);
    if (loss?.kind === 'elided') {
      const lost = loss.lost.slice(0, MAX_QUOTED).map((l) => `    ${l}`);
      if (loss.lost.length > MAX_QUOTED)
        lost.push(`    … (${loss.lost.length - MAX_QUOTED} more lines)`);
      problems.push(
        `\`${change.path}\`: your new version replaces real code with a placeholder: line ${loss.line}, \`${loss.marker.trim()}\`, stands where the current file has these lines, which your version does not keep:\n${lost.join('\n')}\n` +
          'Writing it would delete that code and leave the comment. Send the whole file with every line written out: no "..." or "existing code" placeholders.',
      );
    } else if (loss?.kind === 'cut') {
      cut ??= { path: change.path, line: loss.line, why: loss.why };
      problems.push(
        `\`${change.path}\`: your new version looks cut off: ${loss.why}. It was probably cut off at the output limit. Send the whole file again, complete.`,
      );
    }
  }
  if (problems.length > 0)
    throw new AutofixError(
      'INVALID_DIFF',
      `Your answer was not applied; nothing was written.\n\n${problems.join('\n\n')}`,
      { details: { problems, ...(cut ? { cut } : {}) } },
    );
}
