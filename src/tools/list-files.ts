/** `list_files`: the repository's files under a folder, to a depth, folders summarised past it. */
import { z } from 'zod';
import type { Tool } from './tool.js';

const schema = z
  .object({
    path: z.string().default('').describe('Folder to list, e.g. `src/` (empty: the repository).'),
    depth: z.number().int().min(1).max(10).default(2).describe('How many folder levels to show.'),
  })
  .strict();

export const listFilesTool: Tool<z.infer<typeof schema>> = {
  name: 'list_files',
  description:
    'List the files of the repository under a folder, to a depth; deeper folders are shown ' +
    'with their file counts.',
  schema,
  async run(args, ws) {
    const dir = args.path.replace(/^\.?\/?/, '').replace(/\/?$/, '');
    const prefix = dir === '' ? '' : `${dir}/`;
    const under = (await ws.paths()).filter((p) => p.startsWith(prefix));
    const counts = new Map<string, number>();
    for (const p of under) {
      const parts = p.slice(prefix.length).split('/');
      const key =
        parts.length > args.depth ? `${parts.slice(0, args.depth).join('/')}/` : parts.join('/');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const entries = [...counts].map(([k, n]) =>
      k.endsWith('/') ? `${prefix}${k} (${n} files)` : `${prefix}${k}`,
    );
    const shown = entries.slice(0, ws.limits.entries);
    const more = entries.length > shown.length ? [`… ${entries.length - shown.length} more`] : [];
    const text =
      under.length === 0
        ? `no files under \`${prefix || '.'}\``
        : [`${under.length} files under \`${prefix || '.'}\`:`, ...shown, ...more].join('\n');
    return { text, summary: `listed ${prefix || '.'} (${under.length} files)` };
  },
};
