import { z } from 'zod';
import type { FileChange } from '../contracts.js';
import { AutofixError } from '../errors.js';
import { EditOpError, applyEditOp } from './apply-edit-op.js';
import type { EditOp } from './apply-edit-op.js';
import { cleanPath } from './clean-path.js';
import { describeSchemaIssues } from './describe-schema-issues.js';
import { requireJsonAnswer } from './require-json-answer.js';
import { sha256 } from './sha256.js';
import type { FileReport, ParsedEdits, ReadFile } from './types.js';

const EDIT_TYPES = [
  'replace',
  'insert_before',
  'insert_after',
  'append',
  'prepend',
  'full_replace',
  'replace_line',
  'insert_at_line',
] as const;
const SHAPE =
  '{"operations": [{"file_path": "src/app.ts", "operation": "create|edit|delete", "edit_type": "replace|…", "target": "…", "line_number": 1, "content": "…"}]}';

const operationSchema = z
  .object({
    file_path: z.string().min(1, 'must name a file'),
    operation: z.enum(['create', 'edit', 'delete']),
    edit_type: z.enum(EDIT_TYPES).optional(),
    target: z.string().optional(),
    line_number: z.number().int().positive().optional(),
    content: z.string().optional(),
    description: z.string().optional(),
  })
  .strict()
  .superRefine((op, ctx) => {
    const need = (key: 'edit_type' | 'target' | 'line_number' | 'content', why: string): void => {
      if (op[key] === undefined || op[key] === '')
        ctx.addIssue({ code: 'custom', path: [key], message: `is required ${why}` });
    };
    if (op.operation === 'create') need('content', 'to create a file');
    if (op.operation !== 'edit') return;
    need('edit_type', 'for operation "edit"');
    const type = op.edit_type;
    if (type === 'replace' || type === 'insert_before' || type === 'insert_after')
      need('target', `for edit_type "${type}"`);
    if (type === 'replace_line' || type === 'insert_at_line')
      need('line_number', `for edit_type "${type}"`);
    if (type !== undefined && op.content === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['content'],
        message: `is required for edit_type "${type}"`,
      });
  });

const proposalSchema = z
  .object({
    operations: z.array(operationSchema).min(1, 'must list at least one operation'),
    summary: z.string().optional(),
  })
  .strict();

/** Files are edited in LF; a file written with CRLF throughout gets CRLF back. */
const isCrlf = (text: string): boolean => text.includes('\r\n') && !/(^|[^\r])\n/.test(text);

type Operation = z.infer<typeof operationSchema>;

/** The answer's operations, or a refusal that lists what does not fit the schema. */
function readOperations(text: string): z.infer<typeof proposalSchema> {
  const parsed = proposalSchema.safeParse(requireJsonAnswer(text, SHAPE));
  if (!parsed.success)
    throw new AutofixError(
      'LLM_OUTPUT_INVALID',
      `Your operations were refused; nothing was written.\n${describeSchemaIssues(parsed.error)
        .map((p) => `- ${p}`)
        .join('\n')}\nExpected: ${SHAPE}`,
    );
  return parsed.data;
}

/** The file's content after `op` (undefined: deleted), or why `op` cannot apply to `now`. */
function applyOperation(
  op: Operation,
  now: string | undefined,
  where: string,
): { content: string | undefined } | { problem: string } {
  if (op.operation === 'create') {
    return now !== undefined
      ? {
          problem: `${where}: the file already exists; use operation "edit" with edit_type "full_replace" to rewrite it`,
        }
      : { content: op.content ?? '' };
  }
  if (now === undefined)
    return {
      problem: `${where}: no such file; use operation "create" for a new file, or check the path`,
    };
  if (op.operation === 'delete') return { content: undefined };
  try {
    const edit: EditOp = {
      edit_type: op.edit_type ?? 'full_replace',
      target: op.target?.replace(/\r\n/g, '\n'),
      line_number: op.line_number,
      content: op.content?.replace(/\r\n/g, '\n'),
    };
    return { content: applyEditOp(now, edit) };
  } catch (err) {
    if (!(err instanceof EditOpError)) throw err;
    return { problem: `${where}: ${err.message}` };
  }
}

/** The change set's files: every file whose content the operations left other than it was. */
function changesOf(
  original: ReadonlyMap<string, string | undefined>,
  current: ReadonlyMap<string, string | undefined>,
  crlf: ReadonlyMap<string, boolean>,
): { changes: FileChange[]; files: FileReport[] } {
  const changes: FileChange[] = [];
  const files: FileReport[] = [];
  for (const [path, after] of current) {
    const before = original.get(path);
    if (before === undefined && after === undefined) continue;
    const baseSha256 = sha256(before ?? '');
    if (after === undefined) changes.push({ path, op: 'delete', baseSha256 });
    else
      changes.push({
        path,
        op: 'write',
        content: crlf.get(path) ? after.replace(/\n/g, '\r\n') : after,
        baseSha256,
      });
    files.push({
      path,
      op: after === undefined ? 'delete' : 'write',
      created: before === undefined,
    });
  }
  return { changes, files };
}

/**
 * edit-ops format (docs/EDIT-FORMATS.md): create (the file must not exist), delete, and edit with eight edit
 * types, applied in order to the current contents read through `readFile`. A target that is
 * missing or not unique is refused with the closest file lines and their numbers.
 */
export async function parseEditOps(text: string, readFile: ReadFile): Promise<ParsedEdits> {
  const data = readOperations(text);
  const original = new Map<string, string | undefined>();
  const current = new Map<string, string | undefined>();
  const crlf = new Map<string, boolean>();
  const problems: string[] = [];
  for (const [i, op] of data.operations.entries()) {
    const path = cleanPath(op.file_path);
    const where = `operations[${i}] (${op.operation}${op.edit_type ? ` ${op.edit_type}` : ''} \`${path}\`)`;
    if (!original.has(path)) {
      const text = await readFile(path);
      original.set(path, text);
      crlf.set(path, text !== undefined && isCrlf(text));
      current.set(path, text?.replace(/\r\n/g, '\n'));
    }
    const result = applyOperation(op, current.get(path), where);
    if ('problem' in result) problems.push(result.problem);
    else current.set(path, result.content);
  }
  if (problems.length > 0)
    throw new AutofixError(
      'INVALID_DIFF',
      `Your operations were not applied; nothing was written.\n\n${problems.join('\n\n')}`,
      { details: { problems } },
    );
  const { changes, files } = changesOf(original, current, crlf);
  const summary = data.summary?.trim();
  return {
    changeSet: { files: changes, notes: { user: summary ? [summary] : [], debug: [] } },
    files,
  };
}
