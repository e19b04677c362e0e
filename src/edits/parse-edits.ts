import type { EditFormat } from '../config/repo-config.js';
import { parseEditOps } from './parse-edit-ops.js';
import { parseFencedFiles } from './parse-fenced-files.js';
import { parseJsonWrites } from './parse-json-writes.js';
import { parseUdiff } from './parse-udiff.js';
import type { ParsedEdits, ReadFile } from './types.js';

/** Dispatches to the parser of the configured edit format (DESIGN.md §4). */
export async function parseEdits(
  format: EditFormat,
  text: string,
  readFile: ReadFile,
): Promise<ParsedEdits> {
  switch (format) {
    case 'udiff':
      return parseUdiff(text, readFile);
    case 'fenced-files':
      return parseFencedFiles(text);
    case 'json-writes':
      return parseJsonWrites(text);
    case 'edit-ops':
      return parseEditOps(text, readFile);
  }
}
