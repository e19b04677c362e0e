import { closestLines } from './closest-lines.js';

/** One `edit` operation of the edit-ops format, already schema-checked. */
export interface EditOp {
  edit_type:
    | 'replace'
    | 'insert_before'
    | 'insert_after'
    | 'append'
    | 'prepend'
    | 'full_replace'
    | 'replace_line'
    | 'insert_at_line';
  target?: string;
  line_number?: number;
  content?: string;
}

/** Thrown with a message for the LLM; the caller adds which operation and file. */
export class EditOpError extends Error {}

const quote = (s: string): string =>
  s
    .split('\n')
    .slice(0, 6)
    .map((l) => `    ${l}`)
    .join('\n') + (s.split('\n').length > 6 ? '\n    …' : '');

function findTarget(text: string, target: string): number {
  const hits: number[] = [];
  for (let i = text.indexOf(target); i >= 0 && hits.length < 10; i = text.indexOf(target, i + 1))
    hits.push(i);
  if (hits.length === 1) return hits[0] ?? 0;
  if (hits.length === 0) {
    const near = closestLines(text, target);
    throw new EditOpError(
      `the target was not found in the file:\n${quote(target)}\n` +
        (near.length > 0
          ? `The most similar lines in the file are:\n${near.map((l) => `  ${l}`).join('\n')}\n`
          : '') +
        'Copy the target exactly from the current file (whitespace included), or use edit_type "replace_line" / "insert_at_line" with a line_number.',
    );
  }
  const lines = hits.map((h) => text.slice(0, h).split('\n').length);
  throw new EditOpError(
    `the target occurs ${hits.length}${hits.length === 10 ? '+' : ''} times (lines ${lines.join(', ')}):\n${quote(target)}\n` +
      'Make the target longer so it occurs once, or use edit_type "replace_line" / "insert_at_line" with a line_number.',
  );
}

/** Content as whole lines: ends with exactly one newline. */
const asLines = (content: string): string =>
  content === '' || content.endsWith('\n') ? content : `${content}\n`;

/**
 * Applies one edit to LF text. Target edits are plain string edits at the single place the
 * target occurs; line edits work on 1-based line numbers; append and prepend keep line breaks.
 */
export function applyEditOp(text: string, op: EditOp): string {
  const content = op.content ?? '';
  switch (op.edit_type) {
    case 'full_replace':
      return content;
    case 'append': {
      if (text === '') return content;
      // Keep the file's final-newline convention: the appended lines end the way the file did.
      if (text.endsWith('\n')) return text + asLines(content);
      return `${text}\n${content.replace(/\n$/, '')}`;
    }
    case 'prepend':
      return asLines(content) + text;
    case 'replace':
    case 'insert_before':
    case 'insert_after': {
      const target = op.target ?? '';
      const at = findTarget(text, target);
      const end = at + target.length;
      if (op.edit_type === 'replace') return text.slice(0, at) + content + text.slice(end);
      if (op.edit_type === 'insert_before') return text.slice(0, at) + content + text.slice(at);
      return text.slice(0, end) + content + text.slice(end);
    }
    case 'replace_line':
    case 'insert_at_line': {
      const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
      const n = op.line_number ?? 0;
      const max = op.edit_type === 'replace_line' ? lines.length : lines.length + 1;
      if (n < 1 || n > max)
        throw new EditOpError(
          `line_number ${n} is out of range: the file has ${lines.length} lines (use 1-${max})`,
        );
      const added =
        content === '' && op.edit_type === 'replace_line'
          ? []
          : content.replace(/\n$/, '').split('\n');
      lines.splice(n - 1, op.edit_type === 'replace_line' ? 1 : 0, ...added);
      const finalNewline = text === '' || text.endsWith('\n');
      return lines.length === 0 ? '' : lines.join('\n') + (finalNewline ? '\n' : '');
    }
  }
}
