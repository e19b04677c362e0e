/** Shapes shared by the edit parsers and the entry function (types only). */
import type { ChangeSet } from '../contracts.js';
import type { HunkReport } from './apply-unified-diff.js';

/**
 * Port to the current text of a repository file (undefined when it does not exist). Parsers
 * that edit existing text (udiff, edit-ops) read through it, so they stay free of the filesystem
 * and the caller can refuse to show them protected files.
 */
export type ReadFile = (path: string) => Promise<string | undefined>;

/** How one file's change was derived: for udiff, where each hunk landed and how it matched. */
export interface FileReport {
  path: string;
  op: 'write' | 'delete';
  /** The file did not exist before. */
  created: boolean;
  /** The content is identical to what is on disk: nothing to write. */
  unchanged?: boolean;
  hunks?: HunkReport[];
}

/** A parser's result: the changes, how they were derived, and a "no change needed" message. */
export interface ParsedEdits {
  changeSet: ChangeSet;
  files: FileReport[];
  /** Set when the LLM said that no change is needed (`$$$start … $$$end`). */
  noChange?: string;
}

/**
 * Where an answer that looks cut off stops (the model hit its output limit): `details.cut` of the
 * refusal, so a caller can ask for the rest instead of the same answer again.
 */
export interface AnswerCut {
  /** The file the answer was writing when it stopped, when known. */
  path?: string;
  /** 1-based hunk of that file (udiff). */
  hunk?: number;
  /** 1-based line of the answer where the cut part starts (a hunk header, a file block). */
  line?: number;
  why: string;
}
