import type { AnswerCut } from './types.js';

/**
 * Where a JSON answer stops if it was cut off (pure): from its first `{` that starts a line (else
 * its first `{`), the text ends inside a string or with objects or arrays still open. The file is
 * the last `"path"`/`"file_path"` value before the end (json-writes, edit-ops). Undefined when the
 * JSON is closed.
 */
export function jsonCut(text: string): AnswerCut | undefined {
  const lineStart = /^[ \t]*\{/m.exec(text);
  const start = lineStart ? lineStart.index + lineStart[0].length - 1 : text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  let stringStart = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      stringStart = i;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return undefined;
    }
  }
  if (depth <= 0) return undefined;
  const lineAt = (i: number): number => text.slice(0, i).split('\n').length;
  const paths = [...text.matchAll(/"(?:file_)?path"\s*:\s*"((?:[^"\\]|\\.)*)"/g)];
  const path = paths[paths.length - 1]?.[1];
  const where = inString
    ? `inside a string that starts at line ${lineAt(stringStart)}`
    : `with ${depth} object${depth === 1 ? '' : 's'} or array${depth === 1 ? '' : 's'} still open`;
  return {
    ...(path === undefined ? {} : { path }),
    line: lineAt(inString ? stringStart : text.length),
    why: `its JSON ends ${where}${path === undefined ? '' : ` (the last file it names is \`${path}\`)`}`,
  };
}
