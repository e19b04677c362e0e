/**
 * The conventions maintainers already write for coding agents — `AGENTS.md`, `CLAUDE.md`,
 * `.github/copilot-instructions.md` — given to every stage as repository guidance. Read from the
 * base commit only (never from a PR branch a feedback run works on: the bot's own commits could
 * otherwise write its instructions), sanitised like issue text, bounded, and quoted as data in
 * the prompts: it can shape style, commands and layout, never the rules or the output format.
 */
import { sanitizeUntrustedText } from '../text/untrusted-text.js';

export const GUIDANCE_FILES = ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md'];

/** Characters kept per file and in all. */
export const GUIDANCE_FILE_CHARS = 6_000;
export const GUIDANCE_TOTAL_CHARS = 12_000;

/** `read(path)`: the file at the base commit, or undefined. */
export async function readRepoGuidance(
  read: (path: string) => Promise<string | undefined>,
): Promise<string | undefined> {
  const parts: string[] = [];
  let total = 0;
  for (const path of GUIDANCE_FILES) {
    const raw = await read(path);
    const text = raw === undefined ? '' : sanitizeUntrustedText(raw).trim();
    if (text === '') continue;
    const room = Math.min(GUIDANCE_FILE_CHARS, GUIDANCE_TOTAL_CHARS - total);
    if (room <= 200) break;
    const kept = text.length > room ? cut(text, room) : text;
    parts.push(`### ${path}\n\n${kept}`);
    total += kept.length;
  }
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

/** The start of a long file (its overview) within `room`, saying how much was left out. */
function cut(text: string, room: number): string {
  const head = text.slice(0, room - 80).replace(/\n[^\n]*$/, '');
  return `${head}\n[… ${text.length - head.length} more characters not shown …]`;
}
