/**
 * Failure locations as GitHub Check Run annotations (`POST /check-runs` `output.annotations`),
 * folded from what `test-output/` read in a command's output: every finding (failing test,
 * compile error, lint problem) the output places in the repository, in output order.
 *
 * Output is untrusted: paths are repository-relative or dropped (outside the worktree, `..`
 * escapes, `node_modules`, `.git`, URLs: `text/repo-relative-path.ts`), and the result is
 * deduplicated and bounded (GitHub takes 50 annotations per request: the first 50 in output
 * order are kept; each message ≤ 1 KB, 64 KB in all).
 */
import { readTestOutput } from '../test-output/read-test-output.js';
import type { Finding, Level, TestReport } from '../test-output/test-report.js';
import { repoRelativePath, type Worktree } from '../text/repo-relative-path.js';
import { CONTROL, INVISIBLE } from '../text/terminal-text.js';

export { repoRelativePath } from '../text/repo-relative-path.js';

export type AnnotationLevel = Level;

export interface Annotation {
  /** Repository-relative POSIX path. */
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: AnnotationLevel;
  message: string;
  title?: string;
}

export interface AnnotationLimits {
  /** How many annotations are kept (the first ones in output order); default 50. */
  max?: number;
  /** Characters per message; default 1024. */
  maxMessageChars?: number;
  /** Characters of all messages together; default 65536. */
  maxTotalChars?: number;
}

export interface AnnotationOptions extends AnnotationLimits {
  /**
   * The absolute path (or paths, e.g. the sandbox's view and the host's) of the worktree the
   * command ran in: absolute paths under it become relative, every other absolute path is
   * dropped. Relative paths are read as relative to it.
   */
  worktree?: Worktree;
}

export const MAX_ANNOTATIONS = 50;
export const MAX_MESSAGE_CHARS = 1024;
export const MAX_TOTAL_MESSAGE_CHARS = 64 * 1024;
const MAX_TITLE_CHARS = 255;
/** Findings of one report taken at most: far more than are kept, and no quadratic work. */
const MAX_FINDINGS = 1000;

/** At most `max` characters, not splitting a surrogate pair, `…` marking a cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - 1);
  if (/[\uDC00-\uDFFF]/.test(text[cut] ?? '')) cut--;
  return `${text.slice(0, cut)}…`;
}

/**
 * Deduplicates (same place, level, title and message), keeps the first `max` in order, and bounds
 * messages (each, and all together) and titles. Paths are checked again: anything that is not a
 * plain repository-relative path is dropped.
 */
export function boundAnnotations(
  annotations: readonly Annotation[],
  limits: AnnotationLimits = {},
): Annotation[] {
  const max = limits.max ?? MAX_ANNOTATIONS;
  const perMessage = limits.maxMessageChars ?? MAX_MESSAGE_CHARS;
  let budget = limits.maxTotalChars ?? MAX_TOTAL_MESSAGE_CHARS;
  const seen = new Set<string>();
  const out: Annotation[] = [];
  for (const a of annotations) {
    if (out.length >= max || budget <= 0) break;
    const path = repoRelativePath(a.path);
    if (!path || path !== a.path) continue;
    const start = Math.max(1, Math.floor(a.start_line) || 1);
    const end = Math.max(start, Math.floor(a.end_line) || start);
    const title = a.title
      ? clip(a.title.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim(), MAX_TITLE_CHARS)
      : '';
    const text =
      a.message
        .replace(/\r\n?/g, '\n')
        .replace(/\t/g, '  ')
        .replace(CONTROL, '')
        .replace(INVISIBLE, '')
        .trim() ||
      title ||
      'failed';
    const message = clip(text, Math.min(perMessage, budget));
    const key = JSON.stringify([path, start, end, a.annotation_level, title, message]);
    if (seen.has(key)) continue;
    seen.add(key);
    budget -= message.length;
    out.push({
      path,
      start_line: start,
      end_line: end,
      annotation_level: a.annotation_level,
      message,
      ...(title ? { title } : {}),
    });
  }
  return out;
}

/** A report's findings placed in the repository, the first `MAX_FINDINGS` in output order. */
function placed(report: TestReport): Finding[] {
  return [...report.failures, ...report.errors]
    .filter((f) => f.location !== undefined)
    .sort((a, b) => a.at - b.at)
    .slice(0, MAX_FINDINGS);
}

/** The failure locations in one command's output (stdout and stderr together), bounded. */
export function parseAnnotations(output: string, options: AnnotationOptions = {}): Annotation[] {
  const read = options.worktree === undefined ? {} : { worktree: options.worktree };
  const findings = readTestOutput(output, read).flatMap(placed);
  findings.sort((a, b) => a.at - b.at);
  const annotations = findings.map((f): Annotation => {
    const line =
      Number.isSafeInteger(f.location!.line) && f.location!.line > 0 ? f.location!.line : 1;
    return {
      path: f.location!.path,
      start_line: line,
      end_line: line,
      annotation_level: f.level,
      message: f.message ?? f.name,
      ...(f.name ? { title: f.name } : {}),
    };
  });
  return boundAnnotations(annotations, options);
}
