import type { GrepFile } from '../context/grep-code.js';
import type { ToolWorkspace } from './tool-workspace.js';

/** Every file the tools may read, with its text (cached by the workspace after the first call). */
export async function repoTexts(ws: ToolWorkspace): Promise<GrepFile[]> {
  const out: GrepFile[] = [];
  for (const path of await ws.paths()) {
    const read = await ws.read(path);
    if (read.ok) out.push({ path, content: read.text });
  }
  return out;
}

/** A symbol the lookups take: an identifier, or the last part of a dotted name. */
export function symbolOf(raw: string): string | undefined {
  const last =
    raw
      .trim()
      .split(/[.#:]+/)
      .filter(Boolean)
      .pop() ?? '';
  return /^[A-Za-z_$][\w$]*$/.test(last) ? last : undefined;
}
