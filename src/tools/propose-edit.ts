/**
 * `propose_edit`: an answer in one of the edit formats, applied to the run's worktree by the edit
 * engine; answers exactly what it did, or the refusal with the hunk it could not place, so a
 * malformed edit is mended in the loop rather than by a whole new round.
 */
import { z } from 'zod';
import { EDIT_FORMATS } from '../config/repo-config.js';
import { refused, type Tool } from './tool.js';

const schema = z
  .object({
    edit: z.string().min(1).describe('The change, in the edit format (a unified diff by default).'),
    format: z.enum(EDIT_FORMATS).optional().describe('The edit format, when not the default.'),
  })
  .strict();

export const proposeEditTool: Tool<z.infer<typeof schema>> = {
  name: 'propose_edit',
  description:
    "Apply a change to the repository's files, in the edit format the instructions give " +
    '(a unified diff unless told otherwise). Answers what was changed, or why nothing was.',
  schema,
  async run(args, ws) {
    if (!ws.proposeEdit) return refused('edits are not available in this run', 'edit: unavailable');
    const format = args.format ?? ws.editFormats[0] ?? 'udiff';
    if (!ws.editFormats.includes(format))
      return refused(`the format must be one of: ${ws.editFormats.join(', ')}`, 'edit: refused');
    const report = await ws.proposeEdit(format, args.edit);
    if (!report.applied) return refused(`nothing was written: ${report.refusal}`, 'edit refused');
    ws.changed(
      report.files.filter((f) => !f.created).map((f) => f.path),
      report.files.filter((f) => f.created).map((f) => f.path),
    );
    const files = report.files.map((f) => `${f.path}${f.created ? ' (new)' : ''}`);
    return {
      text: [`applied: ${files.join(', ')}`, ...report.notes].join('\n'),
      summary: `edited ${files.join(', ')}`,
    };
  },
};
