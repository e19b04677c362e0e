import type { EditFormat } from '../config/repo-config.js';
import { parseEditOps } from './parse-edit-ops.js';
import { parseFencedFiles } from './parse-fenced-files.js';
import { parseJsonWrites } from './parse-json-writes.js';
import { parseUdiff } from './parse-udiff.js';
import { refuseLostCode } from './refuse-lost-code.js';
import type { ParsedEdits, ReadFile } from './types.js';

/**
 * Dispatches to the parser of the configured edit format (docs/EDIT-FORMATS.md). The formats that
 * send whole new contents (fenced-files, json-writes, edit-ops) are then checked against the
 * current files for placeholders and cut-off tails (`refuse-lost-code.ts`); udiff checks its hunks
 * itself.
 */
export async function parseEdits(
  format: EditFormat,
  text: string,
  readFile: ReadFile,
): Promise<ParsedEdits> {
  const parsed = await parseFormat(format, text, readFile);
  if (format !== 'udiff') await refuseLostCode(parsed, readFile);
  return parsed;
}

async function parseFormat(
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
