/** Shapes shared by the code-commit modules (types only). */
import type { ChangedFile } from '../../../llm/format-file-replacements.js';

/** What one answer did, for the repair prompts. */
export interface RoundRecord {
  /** The answer's `%%%` notes. */
  debugNotes: string[];
  /** Files it replaced or removed on disk (none when it was refused or said `$$$`). */
  changes: ChangedFile[];
  /** What `./build.sh` printed after it (or why the answer was refused), as logged in query-N-build.txt. */
  buildOutput: string;
}

export type CodeCommitPrompt =
  | { kind: 'initial'; query: string; codebase: string }
  /** Default: the latest build output, and only the latest replacement of each file. */
  | { kind: 'repair'; query: string; codebase: string; rounds: readonly RoundRecord[] }
  /** `--history`: every answer and every build output, oldest first. */
  | { kind: 'history'; query: string; codebase: string; rounds: readonly RoundRecord[] };
