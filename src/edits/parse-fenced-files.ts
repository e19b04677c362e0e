import type { FileChange } from '../contracts.js';
import { AutofixError } from '../errors.js';
import { cleanPath } from './clean-path.js';
import type { AnswerCut, ParsedEdits } from './types.js';

/** A block found by one pass: its kind, first and last line (1-based), and body lines. */
interface Block {
  kind: '^^^' | '&&&' | '%%%' | '$$$';
  start: number;
  end: number;
  body: string[];
  /** File blocks: the path, and whether it is a deletion. */
  path?: string;
  del?: boolean;
}

const NOTE_KINDS = ['&&&', '%%%', '$$$'] as const;

/** What an unclosed block at the end of an answer means. */
const CUT =
  'the answer ends inside it, so it looks cut off (at the output limit); send it again complete, with its closing line';
const esc = (s: string): string => s.replace(/[$^]/g, (c) => `\\${c}`);

/** One pass for a note kind (`&&&start` … `&&&end`); every other syntax is ignored. */
function notePass(
  lines: readonly string[],
  kind: (typeof NOTE_KINDS)[number],
  errors: string[],
  cuts: AnswerCut[],
): Block[] {
  const start = new RegExp(`^\\s*${esc(kind)}\\s*start\\s*$`, 'i');
  const end = new RegExp(`^\\s*${esc(kind)}\\s*end\\s*$`, 'i');
  const blocks: Block[] = [];
  let open: Block | undefined;
  lines.forEach((line, i) => {
    if (start.test(line)) {
      if (open)
        errors.push(
          `\`${kind}start\` at line ${i + 1} opens a block inside the one opened at line ${open.start}; close each block with \`${kind}end\` first`,
        );
      else open = { kind, start: i + 1, end: i + 1, body: [] };
    } else if (end.test(line)) {
      if (!open) errors.push(`\`${kind}end\` at line ${i + 1} has no matching \`${kind}start\``);
      else {
        blocks.push({ ...open, end: i + 1 });
        open = undefined;
      }
    } else if (open) open.body.push(line);
  });
  if (open) {
    const why = `the answer ends inside the \`${kind}start\` block opened at line ${open.start}`;
    errors.push(
      `\`${kind}start\` at line ${open.start} is never closed with \`${kind}end\`: ${CUT}`,
    );
    cuts.push({ line: open.start, why });
  }
  return blocks;
}

/** The file pass: `^^^path` … `^^^end` (new content) or `^^^path` + `^^^delete`. */
function filePass(lines: readonly string[], errors: string[], cuts: AnswerCut[]): Block[] {
  const marker = /^\s*\^\^\^\s*(.*?)\s*$/;
  const blocks: Block[] = [];
  let open: Block | undefined;
  lines.forEach((line, i) => {
    const m = marker.exec(line);
    if (!m) {
      open?.body.push(line);
      return;
    }
    const word = (m[1] ?? '').toLowerCase();
    if (word === 'end' || word === 'delete') {
      if (!open) errors.push(`\`^^^${word}\` at line ${i + 1} has no \`^^^<path>\` line before it`);
      else if (word === 'delete' && open.body.length > 0)
        errors.push(
          `\`^^^delete\` at line ${i + 1} must come right after \`^^^${open.path}\` (line ${open.start}), with nothing between`,
        );
      else blocks.push({ ...open, end: i + 1, del: word === 'delete' });
      open = undefined;
    } else if (open) {
      errors.push(
        `\`^^^${m[1]}\` at line ${i + 1} starts inside the block for \`${open.path}\` (line ${open.start}); end each file with \`^^^end\``,
      );
    } else if (word === '') {
      errors.push(`\`^^^\` at line ${i + 1} names no file; write \`^^^path/to/file\``);
    } else {
      open = { kind: '^^^', start: i + 1, end: i + 1, body: [], path: cleanPath(m[1] ?? '') };
    }
  });
  if (open) {
    errors.push(
      `the block for \`${open.path}\` at line ${open.start} is never closed with \`^^^end\`: ${CUT}`,
    );
    cuts.push({
      ...(open.path === undefined ? {} : { path: open.path }),
      line: open.start,
      why: `the answer ends inside the block for \`${open.path}\` opened at line ${open.start}`,
    });
  }
  return blocks;
}

/** Drops a markdown fence wrapped around a whole non-markdown file (models add them by habit). */
function unfence(path: string, body: string[]): string[] {
  if (/\.(md|mdx|markdown|txt)$/i.test(path) || body.length < 2) return body;
  const first = body[0] ?? '';
  const last = body[body.length - 1] ?? '';
  return /^\s*(```|~~~)[\w.+-]*\s*$/.test(first) && /^\s*(```|~~~)\s*$/.test(last)
    ? body.slice(1, -1)
    : body;
}

const REMINDER =
  'Format: `^^^path/to/file` + full new content + `^^^end`; `^^^path` + `^^^delete` to remove a file; ' +
  '`&&&start`/`&&&end` for notes to the user, `%%%start`/`%%%end` for debugging notes, and ' +
  '`$$$start`/`$$$end` (instead of any file) when no change is needed. Blocks must not overlap or nest.';

/**
 * fenced-files format (docs/EDIT-FORMATS.md): four independent passes, one per syntax, then the rules
 * across them: no overlapping or nested blocks of any kinds, one version per file, `$$$` only
 * without file blocks, and at least one of the two.
 */
export function parseFencedFiles(text: string): ParsedEdits {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const errors: string[] = [];
  const cuts: AnswerCut[] = [];
  const files = filePass(lines, errors, cuts);
  const notes = NOTE_KINDS.flatMap((kind) => notePass(lines, kind, errors, cuts));
  const all = [...files, ...notes].sort((a, b) => a.start - b.start);
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const a = all[i];
      const b = all[j];
      if (a && b && b.start <= a.end && a.kind !== b.kind) {
        const name = (x: Block): string =>
          x.kind === '^^^' ? `\`^^^${x.path}\`` : `\`${x.kind}\``;
        errors.push(
          `the ${name(a)} block (lines ${a.start}-${a.end}) and the ${name(b)} block (lines ${b.start}-${b.end}) overlap; blocks must not overlap or nest`,
        );
      }
    }
  }
  const seen = new Map<string, number>();
  for (const f of files) {
    const first = seen.get(f.path ?? '');
    if (first !== undefined)
      errors.push(
        `\`${f.path}\` has two versions (lines ${first} and ${f.start}); send each file once`,
      );
    else seen.set(f.path ?? '', f.start);
  }
  const noChange = notes.filter((n) => n.kind === '$$$');
  if (noChange.length > 0 && files.length > 0)
    errors.push(
      '`$$$` says no change is needed, but the answer also changes files; send either file blocks or `$$$`, not both',
    );
  if (noChange.length === 0 && files.length === 0 && errors.length === 0)
    errors.push(
      'the answer has no file blocks and no `$$$` block; send the changed files, or `$$$start`/`$$$end` if no change is needed',
    );
  // The block opened last is where the answer stops.
  const cut = cuts.sort((a, b) => (b.line ?? 0) - (a.line ?? 0))[0];
  if (errors.length > 0)
    throw new AutofixError(
      'LLM_OUTPUT_INVALID',
      `Your answer could not be parsed; nothing was written.\n${errors.map((e) => `- ${e}`).join('\n')}\n${REMINDER}`,
      { details: { errors, ...(cut ? { cut } : {}) } },
    );

  const changes: FileChange[] = files.map((f) => {
    const path = f.path ?? '';
    if (f.del) return { path, op: 'delete' };
    const body = unfence(path, f.body);
    return { path, op: 'write', content: body.length === 0 ? '' : `${body.join('\n')}\n` };
  });
  const bodyOf = (kind: string): string[] =>
    notes.filter((n) => n.kind === kind).map((n) => n.body.join('\n').trim());
  return {
    changeSet: { files: changes, notes: { user: bodyOf('&&&'), debug: bodyOf('%%%') } },
    files: changes.map((c) => ({ path: c.path, op: c.op, created: false })),
    ...(noChange.length > 0 ? { noChange: bodyOf('$$$').join('\n\n') } : {}),
  };
}
