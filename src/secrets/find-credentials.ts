/**
 * What in a change looks like a credential (issue #32): the run's own secrets in any encoding
 * the redactor knows, the token and key formats of a maintained rule set (`rule-set.ts`), and
 * random-looking values assigned to credential names (`high-entropy-assignments.ts`). Only what
 * the change adds counts: the added lines of a changed file, all of a new file. A finding names
 * the file, the line and the rule, never the value.
 */
import { addedLines, lineAt, lineStarts } from './added-lines.js';
import { highEntropyAssignments } from './high-entropy-assignments.js';
import { ruleSetHits } from './rule-set.js';

export interface ChangedText {
  path: string;
  /** The text before the change; undefined for a new file. */
  before: string | undefined;
  after: string;
}

export interface CredentialFinding {
  path: string;
  line: number;
  /** Which rule matched, e.g. `github: GITHUB_TOKEN`, `this run's secret (base64 of a secret)`. */
  rule: string;
}

interface Span {
  start: number;
  end: number;
  rule: string;
}

/** Where the run's own secrets stand (the redactor's `find`). */
export type FindKnown = (text: string) => { start: number; end: number; label: string }[];

async function spansOf(file: ChangedText, findKnown: FindKnown): Promise<Span[]> {
  const known = findKnown(file.after).map((s) => ({
    ...s,
    rule: `this run's secret (${s.label})`,
  }));
  // Binary content is not text the rules understand; the run's secrets are looked for all the same.
  if (file.after.includes('\0')) return known;
  const assigned = highEntropyAssignments(file.after).map((h) => ({
    ...h,
    rule: `high-entropy value assigned to ${h.name}`,
  }));
  return [...known, ...(await ruleSetHits(file.path, file.after)), ...assigned];
}

/**
 * The findings, and the values found (for the redactor only: they are never shown, and a caller
 * registers them so that nothing written later shows them either).
 */
export async function findCredentials(
  files: readonly ChangedText[],
  findKnown: FindKnown,
): Promise<{ findings: CredentialFinding[]; values: string[] }> {
  const findings: CredentialFinding[] = [];
  const values: string[] = [];
  for (const file of files) {
    const added = addedLines(file.before, file.after);
    if (added.size === 0) continue;
    const starts = lineStarts(file.after);
    const seen = new Set<string>();
    const kept: Span[] = [];
    for (const span of await spansOf(file, findKnown)) {
      // One finding per value, by the most specific rule: the run's own, the rule set, entropy.
      if (kept.some((k) => k.start < span.end && span.start < k.end)) continue;
      kept.push(span);
      const first = lineAt(starts, span.start);
      const last = lineAt(starts, Math.max(span.start, span.end - 1));
      // Reported at its first added line: a key block the change completes counts too.
      let line = first;
      while (line <= last && !added.has(line)) line++;
      if (line > last || seen.has(`${line}:${span.rule}`)) continue;
      seen.add(`${line}:${span.rule}`);
      findings.push({ path: file.path, line, rule: span.rule });
      values.push(file.after.slice(span.start, span.end));
    }
  }
  findings.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
  return { findings, values };
}

/** `path:line (rule)` lines for a message; no value. */
export function describeFindings(findings: readonly CredentialFinding[]): string {
  return findings.map((f) => `- \`${f.path}:${f.line}\` — ${f.rule}`).join('\n');
}
