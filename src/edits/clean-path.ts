/**
 * The path as the LLM most likely meant it: surrounding quotes, backticks and whitespace removed,
 * a leading `./` dropped. Anything else unusual is left for the path policy to refuse by name.
 */
export function cleanPath(raw: string): string {
  let path = raw.trim();
  const quoted = /^(["'`])(.*)\1$/.exec(path);
  if (quoted) path = (quoted[2] ?? '').trim();
  while (path.startsWith('./')) path = path.slice(2);
  return path;
}
