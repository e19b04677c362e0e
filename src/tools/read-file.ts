/** `read_file`: a repository file with line numbers, whole or a range, within the limits. */
import { z } from 'zod';
import { refused, type Tool } from './tool.js';

const schema = z
  .object({
    path: z.string().min(1).describe('Repository-relative path, e.g. `src/app.js`.'),
    start_line: z.number().int().min(1).optional().describe('First line to show (1-based).'),
    end_line: z.number().int().min(1).optional().describe('Last line to show (inclusive).'),
  })
  .strict();

export const readFileTool: Tool<z.infer<typeof schema>> = {
  name: 'read_file',
  description:
    'Read a file of the repository, with line numbers. Large files are shown in parts: give ' +
    'start_line/end_line for the part you need.',
  schema,
  async run(args, ws) {
    const read = await ws.read(args.path);
    if (!read.ok) return refused(read.message, `read ${args.path}: refused`);
    const lines = read.text.replace(/\n$/, '').split('\n');
    const total = read.text === '' ? 0 : lines.length;
    const from = Math.min(args.start_line ?? 1, Math.max(total, 1));
    const last = Math.min(args.end_line ?? total, total, from + ws.limits.readLines - 1);
    const width = String(last).length;
    const shown = lines
      .slice(from - 1, last)
      .map((l, i) => `${String(from + i).padStart(width)}| ${l}`);
    const head =
      total === 0
        ? `${args.path}: empty file`
        : `${args.path}: lines ${from}-${last} of ${total}` +
          (last < total ? ` (ask for start_line ${last + 1} to read on)` : '');
    return { text: [head, ...shown].join('\n'), summary: `read ${args.path}:${from}-${last}` };
  },
};
