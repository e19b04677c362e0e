import { AutofixError } from '../errors.js';
import type { ParsedEdits } from './types.js';

/**
 * Merges the answers of one round (the code agent answers once per planned file) into one
 * change set, applied all together or not at all. Two answers changing the same file contradict
 * each other: refused, naming the file, rather than letting one silently win.
 */
export function mergeParsedEdits(parts: readonly ParsedEdits[]): ParsedEdits {
  if (parts.length === 1) return parts[0]!;
  const owner = new Map<string, number>();
  const merged: ParsedEdits = {
    changeSet: { files: [], notes: { user: [], debug: [] } },
    files: [],
  };
  parts.forEach((part, i) => {
    for (const file of part.changeSet.files) {
      const first = owner.get(file.path);
      if (first !== undefined) {
        throw new AutofixError(
          'LLM_OUTPUT_INVALID',
          `Answers ${first + 1} and ${i + 1} both change \`${file.path}\`. Each answer may change only the file it was asked about; send one version of \`${file.path}\`.`,
          { details: { path: file.path } },
        );
      }
      owner.set(file.path, i);
      merged.changeSet.files.push(file);
    }
    merged.changeSet.notes.user.push(...part.changeSet.notes.user);
    merged.changeSet.notes.debug.push(...part.changeSet.notes.debug);
    merged.files.push(...part.files);
  });
  const noChange = parts.map((p) => p.noChange).filter((n): n is string => n !== undefined);
  // "No change needed" only counts when every answer says so.
  if (merged.changeSet.files.length === 0 && noChange.length > 0)
    merged.noChange = noChange.join('\n');
  return merged;
}
