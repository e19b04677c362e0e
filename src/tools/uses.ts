/**
 * Where a name is used, file by file: the whole word (`$` and `_` count as word characters), in
 * the workspace's order (the files most relevant to the issue first). `find_definition` lists
 * the first files after the definition (`firstUses`) — where a definition is read, its callers
 * are what a model looks at next — and `find_references` lists every use (`usesByFile`).
 */
import { escapeRegExp, lineAt, type GrepFile } from '../context/grep-code.js';

export interface FileUses {
  path: string;
  /** The lines holding the word, in order: 1-based number and text. */
  lines: { n: number; text: string }[];
}

const wordPattern = (name: string): RegExp =>
  new RegExp(`(?<![\\w$])${escapeRegExp(name)}(?![\\w$])`);

/**
 * The files holding `name` as a word and their lines, in `files`' order; a line `skip` accepts
 * (a definition) is left out, and a file left with none is not listed.
 */
export function usesByFile(
  files: readonly GrepFile[],
  name: string,
  skip: (line: string) => boolean = () => false,
): FileUses[] {
  const word = wordPattern(name);
  const out: FileUses[] = [];
  for (const file of files) {
    if (!file.content.includes(name)) continue;
    const lines: FileUses['lines'] = [];
    file.content.split('\n').forEach((text, i) => {
      if (word.test(text) && !skip(text)) lines.push({ n: i + 1, text });
    });
    if (lines.length > 0) out.push({ path: file.path, lines });
  }
  return out;
}

/**
 * The files holding `name` as a word, each with its first such line, in `files`' order: one
 * native scan of a file's text, no split into lines (a name used in thousands of files).
 */
export function firstUses(
  files: readonly GrepFile[],
  name: string,
): { path: string; line: { n: number; text: string } }[] {
  const word = wordPattern(name);
  const out: { path: string; line: { n: number; text: string } }[] = [];
  for (const file of files) {
    const at = file.content.includes(name) ? word.exec(file.content)?.index : undefined;
    if (at === undefined) continue;
    const start = file.content.lastIndexOf('\n', at) + 1;
    const end = file.content.indexOf('\n', at);
    const text = file.content.slice(start, end < 0 ? undefined : end);
    out.push({ path: file.path, line: { n: lineAt(file.content, at), text } });
  }
  return out;
}
