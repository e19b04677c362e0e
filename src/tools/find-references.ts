/** `find_references`: where a name is used (the whole word), definitions set apart. */
import { z } from 'zod';
import { definitionPattern } from '../context/grep-code.js';
import { refused, type Tool } from './tool.js';
import { repoTexts, symbolOf } from './repo-texts.js';
import { usesByFile } from './uses.js';

const schema = z
  .object({
    symbol: z.string().min(1).describe('The name, e.g. `parseConfig`.'),
  })
  .strict();

export const findReferencesTool: Tool<z.infer<typeof schema>> = {
  name: 'find_references',
  description: 'Find where a name is used (whole word), each as path:line: text.',
  schema,
  async run(args, ws) {
    const name = symbolOf(args.symbol);
    if (!name)
      return refused(
        `\`${args.symbol}\` is not an identifier`,
        `references to ${args.symbol}: refused`,
      );
    const definition = definitionPattern(name);
    const hits: string[] = [];
    let total = 0;
    for (const uses of usesByFile(await repoTexts(ws), name, (line) => definition.test(line)))
      for (const { n, text } of uses.lines) {
        total += 1;
        if (hits.length < ws.limits.hits)
          hits.push(`${uses.path}:${n}: ${text.trim().slice(0, ws.limits.lineChars)}`);
      }
    const text =
      total === 0
        ? `no use of \`${name}\` found outside its definitions`
        : [
            `${total} uses of \`${name}\`${total > hits.length ? ` (first ${hits.length})` : ''}:`,
            ...hits,
          ].join('\n');
    return { text, summary: `references to ${name}: ${total}` };
  },
};
