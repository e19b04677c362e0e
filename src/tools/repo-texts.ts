import type { GrepFile } from '../context/grep-code.js';
import type { ToolWorkspace } from './tool-workspace.js';

/** Every file the tools may read, with its text (cached by the workspace after the first call). */
export function repoTexts(ws: ToolWorkspace): Promise<GrepFile[]> {
  return ws.texts();
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
