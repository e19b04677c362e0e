/** `find_definition`: where a function, class, method, type or constant is defined. */
import { z } from 'zod';
import { filesNamed } from '../context/code-graph.js';
import { findDefinitions } from '../context/grep-code.js';
import { refused, type Tool } from './tool.js';
import { repoTexts, symbolOf } from './repo-texts.js';

const schema = z
  .object({
    symbol: z.string().min(1).describe('The name, e.g. `parseConfig` or `Router.handle`.'),
  })
  .strict();

export const findDefinitionTool: Tool<z.infer<typeof schema>> = {
  name: 'find_definition',
  description:
    'Find where a function, class, method, type or constant is defined: path:line and the line.',
  schema,
  async run(args, ws) {
    const name = symbolOf(args.symbol);
    if (!name)
      return refused(
        `\`${args.symbol}\` is not an identifier`,
        `definition of ${args.symbol}: refused`,
      );
    const files = await repoTexts(ws);
    const hits = findDefinitions(files, name, ws.limits.hits);
    const byPath = new Map(files.map((f) => [f.path, f.content]));
    const lines = hits.slice(0, ws.limits.hits).map((h) => {
      const text = (byPath.get(h.path) ?? '').split('\n')[h.line - 1]?.trim() ?? '';
      return `${h.path}:${h.line}: ${text.slice(0, ws.limits.lineChars)}`;
    });
    // A module or package is named by its file or folder (`ios_facts`, `services/iam/`), not
    // defined: files so named first, then a folder's files, each in the workspace's order (the
    // most relevant to the issue first).
    const defined = new Set(hits.map((h) => h.path));
    const order = new Map(files.map((f, i) => [f.path, i]));
    const named = filesNamed(
      files.map((f) => f.path),
      name,
    )
      .filter((m) => !defined.has(m.path))
      .sort(
        (a, b) =>
          Number(a.how !== 'file') - Number(b.how !== 'file') ||
          (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0),
      )
      .slice(0, 10)
      .map(
        (m) =>
          `${m.path}:1: (${m.how === 'file' ? 'the file is named' : 'in a folder named'} \`${name}\`)`,
      );
    const text =
      hits.length + named.length === 0
        ? `no definition of \`${name}\` found (try search for where it is used)`
        : [
            ...(hits.length > 0
              ? [`\`${name}\` is defined in ${hits.length} file(s):`, ...lines]
              : []),
            ...(named.length > 0 ? [`files and folders named \`${name}\`:`, ...named] : []),
          ].join('\n');
    return { text, summary: `definition of ${name}: ${hits.length + named.length} found` };
  },
};
