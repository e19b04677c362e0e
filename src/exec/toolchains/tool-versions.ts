/**
 * asdf's and mise's `.tool-versions`: one `name version [fallback…]` per line, `#` comments.
 * The first version of each tool is the one it uses.
 */
export function toolVersions(text: string): Map<string, string> {
  const tools = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const [name, version] = raw.replace(/#.*/, '').trim().split(/\s+/);
    if (name && version && !tools.has(name)) tools.set(name, version);
  }
  return tools;
}
