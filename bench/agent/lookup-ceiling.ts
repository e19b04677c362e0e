/**
 * The reference `bench:agent` reports beside the scripted explorer: how far the tools' answers
 * let a model that may only look up the issue's words go, whatever its order of lookups. For
 * every lookup the issue allows (`lookups`), the answer's files are read in the order named,
 * skipping those already seen; the task is reachable in `1 + k` calls when some answer names a
 * file the fix changes k-th among the unseen ones. The explorer chooses its lookups by rule; this
 * is the best any such choice can do with these tools (or reading the files the opening message
 * suggests, in order), so a tool that orders its answers better
 * raises it and an explorer's rule cannot.
 */
import { callTool } from '../../src/tools/call-tool.js';
import { TOOLS } from '../../src/tools/registry.js';
import type { ToolWorkspace } from '../../src/tools/tool-workspace.js';
import { filesIn, lookups } from './scripted-explorer.js';

/** The fewest calls that reach a gold file (a lookup, then reads), or undefined past `max`. */
export async function lookupCeiling(
  issue: string,
  seen: readonly string[],
  gold: readonly string[],
  ws: ToolWorkspace,
  max: number,
  /** The files the opening message suggests next: read in its order, no lookup needed. */
  suggested: readonly string[] = [],
): Promise<number | undefined> {
  if (seen.some((p) => gold.includes(p))) return 0;
  const known = new Set(seen);
  const fromList = suggested.filter((p) => !known.has(p)).findIndex((p) => gold.includes(p));
  let best: number | undefined = fromList >= 0 && fromList < max ? 1 + fromList : undefined;
  for (const lookup of lookups(issue)) {
    if (lookup.name === 'read_file') {
      if (gold.includes(String(lookup.arguments.path))) best = 1;
      continue;
    }
    const out = await callTool(
      { id: 'ceiling', name: lookup.name, arguments: JSON.stringify(lookup.arguments) },
      ws,
      TOOLS,
    );
    const unseen = filesIn(out.text).filter((p) => !known.has(p));
    const at = unseen.findIndex((p) => gold.includes(p));
    if (at >= 0 && 2 + at <= (best ?? max)) best = 2 + at;
    if (best === 1) break;
  }
  return best;
}
